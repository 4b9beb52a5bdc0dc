package com.telemed.webhook.settings;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A partner's webhook URL and encrypted secret (table {@code webhook_settings}, Flyway V2). */
@Entity
@Table(name = "webhook_settings")
public class WebhookSettings extends PanacheEntityBase {

    @Id
    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    /** Null: delivery off. */
    @Column(name = "url")
    public String url;

    /** {@link SecretCipher} output; null until a URL is first saved. */
    @Column(name = "secret_encrypted")
    public byte[] secretEncrypted;

    /** The id of the key {@link #secretEncrypted} was encrypted with ({@link SecretKeys}); null exactly when it is. */
    @Column(name = "secret_key_id")
    public String secretKeyId;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Override
    public String toString() {
        // Never the secret, never the URL.
        return "WebhookSettings[" + partnerId + "]";
    }
}

package com.telemed.requests.consultation;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A booking link issued when a prescriber asks for a consultation (table {@code consultations}). */
@Entity
@Table(name = "consultations")
public class Consultation extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "request_id", nullable = false, updatable = false)
    public UUID requestId;

    /** Null for a consultation asked on the whole request. */
    @Column(name = "item_id", updatable = false)
    public UUID itemId;

    @Column(name = "prescriber_id", nullable = false, updatable = false)
    public UUID prescriberId;

    /**
     * SHA-256 (lowercase hex) of the unguessable token, the last path segment of the booking URL;
     * the token itself is never stored ({@link Bookings#hash}).
     */
    @Column(name = "token_hash", nullable = false, updatable = false)
    public String tokenHash;

    @Column(name = "expires_at", nullable = false, updatable = false)
    public Instant expiresAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;
}

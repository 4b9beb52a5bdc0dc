package com.telemed.messaging.attachment;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * An uploaded file (table {@code attachments}): its name and type as uploaded, its size and the
 * stored bytes' id in the {@link FileStore}. Not its link's token, which is derived from the id
 * ({@link AttachmentLinks}); an attachment stored before issue #38 keeps the SHA-256 of the token of
 * the link it was given then. The file name is the patient's: never log it.
 */
@Entity
@Table(name = "attachments")
public class Attachment extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "conversation_id", nullable = false, updatable = false)
    public UUID conversationId;

    @Column(name = "file_id", nullable = false, updatable = false)
    public UUID fileId;

    @Column(name = "file_name", nullable = false, updatable = false)
    public String fileName;

    @Column(name = "content_type", nullable = false, updatable = false)
    public String contentType;

    @Column(name = "size_bytes", nullable = false, updatable = false)
    public long sizeBytes;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    /** SHA-256 of the token of a link handed out before issue #38 (migration V4); null for every later one. */
    @Column(name = "legacy_token_hash", updatable = false)
    public byte[] legacyTokenHash;

    public static Optional<Attachment> byId(UUID id) {
        return find("id", id).firstResultOptional();
    }

    public static Optional<Attachment> byLegacyTokenHash(byte[] hash) {
        return find("legacyTokenHash", hash).firstResultOptional();
    }
}

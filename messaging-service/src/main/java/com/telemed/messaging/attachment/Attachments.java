package com.telemed.messaging.attachment;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Storing an upload, the link that downloads it, and the download itself. */
@ApplicationScoped
public class Attachments {

    private final FileStore files;
    private final AttachmentConfig config;
    private final AttachmentLinks links;

    public Attachments(FileStore files, AttachmentConfig config) {
        this.files = files;
        this.config = config;
        this.links = new AttachmentLinks(config.linkKey().orElse(List.of()));
    }

    /** Stores the upload's bytes and records the attachment, in the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Attachment store(String partnerId, UUID conversationId, Upload upload, Instant at) {
        Attachment attachment = new Attachment();
        attachment.id = UUID.randomUUID();
        attachment.partnerId = partnerId;
        attachment.conversationId = conversationId;
        attachment.fileName = upload.fileName();
        attachment.contentType = upload.contentType();
        attachment.createdAt = at;
        try (InputStream bytes = Files.newInputStream(upload.file())) {
            attachment.fileId = files.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("storing an upload failed", e);
        }
        attachment.sizeBytes = upload.size();
        attachment.persist();
        return attachment;
    }

    /**
     * {@code <base>/attachments/<token>/<file name, percent-encoded>}: anyone holding it may download
     * the file. The same link on every read: the token is derived from the id ({@link AttachmentLinks}),
     * and alone names the file; the name in it is {@link Upload#fitted fitted} to 255 UTF-8 bytes (as
     * every name stored since), so that the link stays far below the gateway's 4,000-character limit
     * on request targets (a 2,000-character name made a 12,079-character link, refused 414: issue #38).
     */
    public String link(Attachment attachment) {
        String configured = config.baseUrl().orElseThrow(() -> new IllegalStateException("messaging.attachments.base-url is not set"));
        String base = configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
        return base + "/attachments/" + links.token(attachment.id) + "/"
                + URLEncoder.encode(Upload.fitted(attachment.fileName), StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * The attachment a link's token names: a derived token's id, once a key is found to make exactly
     * that token (no database read otherwise), else the SHA-256 of a token handed out before
     * issue #38. Anything else names none.
     */
    @Transactional
    public Optional<Attachment> byToken(String token) {
        if (!AttachmentLinks.wellFormed(token)) {
            return Optional.empty();
        }
        Optional<UUID> id = links.attachmentId(token);
        return id.isPresent() ? Attachment.byId(id.get()) : Attachment.byLegacyTokenHash(AttachmentLinks.legacyHash(token));
    }

    /** Streams the attachment's bytes to {@code out}. */
    public void copyTo(Attachment attachment, OutputStream out) throws IOException {
        files.copyTo(attachment.fileId, out);
    }
}

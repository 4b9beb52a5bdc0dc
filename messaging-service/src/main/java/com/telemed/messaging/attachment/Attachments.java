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
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/** Storing an upload, the link that downloads it, and the download itself. */
@ApplicationScoped
public class Attachments {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final FileStore files;
    private final AttachmentConfig config;

    public Attachments(FileStore files, AttachmentConfig config) {
        this.files = files;
        this.config = config;
    }

    /** Stores the upload's bytes and records the attachment, in the caller's transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Attachment store(String partnerId, UUID conversationId, Upload upload, Instant at) {
        Attachment attachment = new Attachment();
        attachment.id = UUID.randomUUID();
        attachment.token = newToken();
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
     * the file. The token alone names the file; a name longer than {@link #LINK_NAME_BYTES} is cut
     * to that in the link (the download's {@code Content-Disposition} carries it whole).
     */
    public String link(Attachment attachment) {
        String configured = config.baseUrl().orElseThrow(() -> new IllegalStateException("messaging.attachments.base-url is not set"));
        String base = configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
        return base + "/attachments/" + attachment.token + "/"
                + URLEncoder.encode(linkName(attachment.fileName), StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * At most this many UTF-8 bytes of the file name go into a link: percent-encoded, each may take
     * three characters, and the gateway refuses a request target over 4,000 characters (414), which
     * a link carrying a name of thousands of characters was (issue #38).
     */
    static final int LINK_NAME_BYTES = 255;

    /** The file name's first whole characters within {@link #LINK_NAME_BYTES} UTF-8 bytes. */
    static String linkName(String fileName) {
        StringBuilder kept = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < fileName.length(); ) {
            int c = fileName.codePointAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
            if (bytes > LINK_NAME_BYTES) {
                break;
            }
            kept.appendCodePoint(c);
            i += Character.charCount(c);
        }
        return kept.toString();
    }

    /** The attachment a link's token names. */
    @Transactional
    public Optional<Attachment> byToken(String token) {
        return Attachment.findByToken(token);
    }

    /** Streams the attachment's bytes to {@code out}. */
    public void copyTo(Attachment attachment, OutputStream out) throws IOException {
        files.copyTo(attachment.fileId, out);
    }

    /** 256 random bits, base64url without padding: 43 characters. */
    static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

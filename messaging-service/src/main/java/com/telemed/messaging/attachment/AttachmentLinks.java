package com.telemed.messaging.attachment;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The token of an attachment's download link (issue #38), which the database never holds: it is
 * derived from the attachment's id with a key the database does not have, so a read of the
 * database or of a backup yields no working link, while every answer that shows the message
 * rebuilds the same link.
 *
 * <p>A token is 32 bytes, base64url without padding (43 characters, the shape of the random tokens
 * before it): the attachment's id (16 bytes), then the first 16 bytes of
 * {@code HMAC-SHA256(key, "attachment-link:" + id)}. A download takes the id from the token and
 * accepts it only when the token is exactly the one some configured key makes for that id
 * ({@link MessageDigest#isEqual}, constant time), before any database read. The keys
 * ({@code ATTACHMENT_LINK_KEY}) are a list: the first makes links, every one is accepted, so a new
 * key can come first while links made with the old one still download.
 *
 * <p>Links handed out before: their random token was stored; migration V4 replaced it by its
 * SHA-256 ({@link #legacyHash}, column {@code legacy_token_hash}, unique), which a download that
 * is no derived token looks up. Answers now show those attachments' derived links.
 */
public final class AttachmentLinks {

    /** The development profiles' key ({@code %dev,test,local}); production refuses it. */
    public static final String DEVELOPMENT_KEY = "local-development-attachment-link-key-not-a-secret";

    /** The shortest key production accepts, as for the platform trust key. */
    public static final int MIN_KEY_LENGTH = 32;

    /** What any link token looks like, derived or from before: 43 base64url characters. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");
    private static final int ID_BYTES = 16;
    private static final int MAC_BYTES = 16;

    private final List<SecretKeySpec> keys;

    /** {@code keys}: the configured ones, the first makes links; none configured makes no link. */
    public AttachmentLinks(List<String> keys) {
        this.keys = keys.stream().map(String::strip).filter(key -> !key.isEmpty())
                .map(key -> new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256")).toList();
    }

    /** The token of the attachment's link, made with the first key. */
    public String token(UUID attachmentId) {
        if (keys.isEmpty()) {
            throw new IllegalStateException("messaging.attachments.link-key is not set");
        }
        return token(keys.get(0), attachmentId);
    }

    /** The attachment a derived token names, when one of the keys made exactly this token. */
    public Optional<UUID> attachmentId(String token) {
        if (!wellFormed(token)) {
            return Optional.empty();
        }
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(token));
        UUID id = new UUID(bytes.getLong(), bytes.getLong());
        byte[] presented = token.getBytes(StandardCharsets.US_ASCII);
        boolean made = false;
        for (SecretKeySpec key : keys) {
            made |= MessageDigest.isEqual(token(key, id).getBytes(StandardCharsets.US_ASCII), presented);
        }
        return made ? Optional.of(id) : Optional.empty();
    }

    /** Whether {@code token} has a link token's shape at all (anything else names no attachment). */
    public static boolean wellFormed(String token) {
        return token != null && TOKEN.matcher(token).matches();
    }

    /** SHA-256 of a token's UTF-8 text: how migration V4 keeps the tokens of links handed out before it. */
    public static byte[] legacyHash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    private static String token(SecretKeySpec key, UUID id) {
        byte[] mac;
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(key);
            mac = hmac.doFinal(("attachment-link:" + id).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
        ByteBuffer bytes = ByteBuffer.allocate(ID_BYTES + MAC_BYTES)
                .putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).put(mac, 0, MAC_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }
}

package com.telemed.common.trust;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature the platform puts on what it sends outside (partner-api.md, Delivery): {@code sha256=}
 * and the lowercase hex HMAC-SHA256 of {@code "<timestamp>.<raw body>"}, keyed with the receiver's
 * secret as UTF-8; the timestamp is the Unix second of the signing, in decimal. webhook-service's
 * webhooks and requests-service's pharmacy orders are signed so; each names its own headers.
 *
 * <p>Holds the key only as a {@link SecretKeySpec}: nothing here prints it.
 */
public final class TimestampedSignature {

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public TimestampedSignature(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The timestamp of a signing at {@code at}: its Unix second, in decimal. */
    public static String timestamp(Instant at) {
        return Long.toString(at.getEpochSecond());
    }

    /** {@code sha256=<hex>} of {@code body}, exactly as sent, signed at {@code timestamp}. */
    public String sign(String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '.');
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable: " + e.getClass().getName());
        }
    }
}

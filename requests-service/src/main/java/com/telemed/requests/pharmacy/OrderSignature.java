package com.telemed.requests.pharmacy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How an order proves where it comes from (requests-service README, "Pharmacies and the order";
 * docs/pharmacy-guide.md), the scheme partners verify webhooks with (partner-api.md, Delivery):
 * {@code X-Order-Timestamp} is the Unix second the transmission was signed, and
 * {@code X-Order-Signature} is {@code sha256=} and the lowercase hex HMAC-SHA256 of
 * {@code "<timestamp>.<raw body>"}, keyed with the pharmacy's own secret as UTF-8. Every
 * transmission is signed afresh (a resend hours later carries a timestamp of its own; the
 * {@code Idempotency-Key} makes it the same order).
 *
 * <p>Holds the key only as a {@link SecretKeySpec}: nothing here prints it.
 */
public final class OrderSignature {

    public static final String TIMESTAMP_HEADER = "X-Order-Timestamp";
    public static final String SIGNATURE_HEADER = "X-Order-Signature";

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public OrderSignature(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The {@code X-Order-Timestamp} of a transmission signed at {@code at}: its Unix second, in decimal. */
    public static String timestamp(Instant at) {
        return Long.toString(at.getEpochSecond());
    }

    /** The {@code X-Order-Signature} of {@code body}, exactly as sent, signed at {@code timestamp}. */
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

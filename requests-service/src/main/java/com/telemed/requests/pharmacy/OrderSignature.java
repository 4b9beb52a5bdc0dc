package com.telemed.requests.pharmacy;

import com.telemed.common.trust.TimestampedSignature;
import java.time.Instant;

/**
 * How an order proves where it comes from (requests-service README, "Pharmacies and the order";
 * docs/pharmacy-guide.md), the scheme partners verify webhooks with (partner-api.md, Delivery):
 * {@code X-Order-Timestamp} is the Unix second the transmission was signed, and
 * {@code X-Order-Signature} is {@code sha256=} and the lowercase hex HMAC-SHA256 of
 * {@code "<timestamp>.<raw body>"}, keyed with the pharmacy's own secret as UTF-8. Every
 * transmission is signed afresh (a resend hours later carries a timestamp of its own; the
 * {@code Idempotency-Key} makes it the same order).
 *
 * <p>The scheme itself is platform-commons' {@link TimestampedSignature}, the webhooks' own.
 */
public final class OrderSignature {

    public static final String TIMESTAMP_HEADER = "X-Order-Timestamp";
    public static final String SIGNATURE_HEADER = "X-Order-Signature";

    private final TimestampedSignature signature;

    public OrderSignature(String secret) {
        this.signature = new TimestampedSignature(secret);
    }

    /** The {@code X-Order-Timestamp} of a transmission signed at {@code at}: its Unix second, in decimal. */
    public static String timestamp(Instant at) {
        return TimestampedSignature.timestamp(at);
    }

    /** The {@code X-Order-Signature} of {@code body}, exactly as sent, signed at {@code timestamp}. */
    public String sign(String timestamp, byte[] body) {
        return signature.sign(timestamp, body);
    }
}

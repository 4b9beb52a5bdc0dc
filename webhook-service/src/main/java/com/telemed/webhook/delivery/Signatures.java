package com.telemed.webhook.delivery;

import com.telemed.common.trust.TimestampedSignature;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * partner-api.md, Delivery: {@code sha256=} + hex HMAC-SHA256 over {@code "<timestamp>.<raw body>"},
 * keyed by the secret as a UTF-8 string (platform-commons' {@link TimestampedSignature}, which
 * pharmacy orders are signed with too).
 */
public final class Signatures {

    private Signatures() {
    }

    public static String sign(String secret, String timestamp, String body) {
        return sign(secret, timestamp, body.getBytes(StandardCharsets.UTF_8));
    }

    /** The same, of the body's UTF-8 bytes as sent (a {@link Job}'s, encoded once). */
    public static String sign(String secret, String timestamp, byte[] body) {
        return new TimestampedSignature(secret).sign(timestamp, body);
    }

    /** X-Webhook-Timestamp: unix seconds of {@code at} (the signing attempt's start), as a decimal string. */
    public static String timestamp(Instant at) {
        return TimestampedSignature.timestamp(at);
    }
}

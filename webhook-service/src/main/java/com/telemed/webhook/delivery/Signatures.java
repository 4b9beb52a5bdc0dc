package com.telemed.webhook.delivery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * partner-api.md, Delivery: {@code sha256=} + hex HMAC-SHA256 over {@code "<timestamp>.<raw body>"},
 * keyed by the secret as a UTF-8 string.
 */
public final class Signatures {

    private Signatures() {
    }

    public static String sign(String secret, String timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '.');
            mac.update(body.getBytes(StandardCharsets.UTF_8));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable: " + e.getClass().getName());
        }
    }

    /** X-Webhook-Timestamp: unix seconds of {@code at} (the signing attempt's start), as a decimal string. */
    public static String timestamp(Instant at) {
        return Long.toString(at.getEpochSecond());
    }
}

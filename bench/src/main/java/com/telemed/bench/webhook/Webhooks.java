package com.telemed.bench.webhook;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What webhook-service sends, as the benchmark mirrors it: its bounds on attempts in flight (its
 * defaults), its User-Agent, its signature, and a payload of the shape requests-service writes.
 */
final class Webhooks {

    /** webhook-service's defaults: attempts in flight per partner and per replica. */
    static final int MAX_IN_FLIGHT_PER_PARTNER = 8;
    static final int MAX_IN_FLIGHT = 256;
    static final String USER_AGENT = "Service-Webhook/1.0";

    private Webhooks() {
    }

    /** {@code X-Webhook-Signature}: HMAC-SHA256 of timestamp, '.', body. */
    static String signature(String secret, String timestamp, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    /** A webhook payload as requests-service writes one for an approved item (with a patient name). */
    static String itemApproved(String requestId) {
        return "{\"event\":\"item.approved\",\"requestId\":\"" + requestId + "\",\"itemId\":\"i-1\","
                + "\"status\":\"approved\",\"patientName\":\"Zoë Ångström\",\"prescriptionName\":\"Drug 1.50\","
                + "\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
    }
}

package com.telemed.testkit.trust;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proofs as platform-commons' {@code com.telemed.common.trust.ServiceProof} makes them, for tests and
 * tools that call a service directly (the testkit comes before platform-commons in the build, so it
 * cannot use that class; platform-commons' {@code TestServiceProofsAgreementTest} holds the two to the
 * same bytes). Also makes the wrong ones the trust tests send: stale, for another target, method or
 * partner.
 */
public final class TestServiceProofs {

    /** The development key of the {@code dev}, {@code test} and {@code local} profiles; never a deployment's. */
    public static final String DEVELOPMENT_KEY = "local-development-trust-key-not-a-secret";
    public static final String TIMESTAMP_HEADER = "X-Service-Timestamp";
    public static final String PROOF_HEADER = "X-Service-Proof";
    public static final String PARTNER_HEADER = "X-Partner-Id";

    private TestServiceProofs() {
    }

    /** The two headers of a call signed now. */
    public static Map<String, String> headers(String key, String method, String target, String partnerId) {
        return headers(key, method, target, partnerId, Instant.now().getEpochSecond());
    }

    /** The two headers of a call signed at {@code epochSeconds}. */
    public static Map<String, String> headers(String key, String method, String target, String partnerId, long epochSeconds) {
        String timestamp = Long.toString(epochSeconds);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(TIMESTAMP_HEADER, timestamp);
        headers.put(PROOF_HEADER, proof(key, method, target, partnerId, timestamp));
        return headers;
    }

    public static String proof(String key, String method, String target, String partnerId, String timestamp) {
        String signed = method + "\n" + target + "\n" + (partnerId == null ? "" : partnerId) + "\n" + timestamp;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.strip().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The request target of a URI as an HTTP/1.1 client sends it: raw path, then {@code ?} and the raw query. */
    public static String target(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }
}

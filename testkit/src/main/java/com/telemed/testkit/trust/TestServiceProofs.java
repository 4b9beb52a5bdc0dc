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
 * same bytes). Also makes the wrong ones the trust tests send: stale, for another target, method,
 * partner or principal.
 *
 * <p>The proof covers the call's {@value #PRINCIPAL_HEADER} (who an {@code /ops} call acts as,
 * platform-commons' {@code access.Principal}). A call to an {@code /ops} path is signed as the
 * operator key ({@value #OPERATOR_KEY}) unless another principal is given ({@link #person},
 * {@link #pharmacy}); any other call carries none.
 */
public final class TestServiceProofs {

    /** The development key of the {@code dev}, {@code test} and {@code local} profiles; never a deployment's. */
    public static final String DEVELOPMENT_KEY = "local-development-trust-key-not-a-secret";
    public static final String TIMESTAMP_HEADER = "X-Service-Timestamp";
    public static final String PROOF_HEADER = "X-Service-Proof";
    public static final String PARTNER_HEADER = "X-Partner-Id";
    public static final String PRINCIPAL_HEADER = "X-Principal";
    /** The operator key's principal, what a direct call to {@code /ops} acts as unless told otherwise. */
    public static final String OPERATOR_KEY = "operator_key:service";

    private TestServiceProofs() {
    }

    /** The headers of a call signed now, with the {@link #defaultPrincipal} of its target. */
    public static Map<String, String> headers(String key, String method, String target, String partnerId) {
        return headers(key, method, target, partnerId, Instant.now().getEpochSecond());
    }

    /** The headers of a call signed at {@code epochSeconds}, with the {@link #defaultPrincipal} of its target. */
    public static Map<String, String> headers(String key, String method, String target, String partnerId, long epochSeconds) {
        return headers(key, method, target, partnerId, defaultPrincipal(target), epochSeconds);
    }

    /**
     * The headers of a call acting as {@code principal} (the {@value #PRINCIPAL_HEADER} header's value;
     * null: none), signed at {@code epochSeconds}: the timestamp, the proof and the principal.
     */
    public static Map<String, String> headers(String key, String method, String target, String partnerId, String principal,
            long epochSeconds) {
        String timestamp = Long.toString(epochSeconds);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(TIMESTAMP_HEADER, timestamp);
        headers.put(PROOF_HEADER, proof(key, method, target, partnerId, principal, timestamp));
        if (principal != null) {
            headers.put(PRINCIPAL_HEADER, principal);
        }
        return headers;
    }

    /** The operator key ({@value #OPERATOR_KEY}) on an {@code /ops} path, none elsewhere. */
    public static String defaultPrincipal(String target) {
        return target != null && target.startsWith("/ops/") ? OPERATOR_KEY : null;
    }

    /**
     * A person's principal: {@code person:<accountId>:<roles>:<prescriberId>} with the roles as given
     * (write them in the platform's order: admin, prescriber, support, pharmacy) and the prescriber id
     * empty when null.
     */
    public static String person(String accountId, String prescriberId, String... roles) {
        return "person:" + accountId + ":" + String.join(",", roles) + ":" + (prescriberId == null ? "" : prescriberId);
    }

    /** A pharmacy credential's principal. */
    public static String pharmacy(String pharmacyId) {
        return "pharmacy:" + pharmacyId;
    }

    /** A proof for a call without a principal. */
    public static String proof(String key, String method, String target, String partnerId, String timestamp) {
        return proof(key, method, target, partnerId, null, timestamp);
    }

    /** A proof for a call carrying {@code principal} (null: none). */
    public static String proof(String key, String method, String target, String partnerId, String principal, String timestamp) {
        String signed = method + "\n" + target + "\n" + (partnerId == null ? "" : partnerId) + "\n"
                + (principal == null ? "" : principal) + "\n" + timestamp;
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

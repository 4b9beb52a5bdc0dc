package com.telemed.common.trust;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The proof that a call comes from a platform service (the gateway, or a service calling another):
 * {@code HMAC-SHA256(key, method + "\n" + target + "\n" + partnerId + "\n" + principal + "\n" + timestamp)}
 * in lowercase hex, where {@code target} is the request target as sent (raw path, then {@code ?} and
 * the raw query when there is one), {@code partnerId} the {@code X-Partner-Id} header sent with it
 * (empty when none), {@code principal} the {@code X-Principal} header sent with it (empty when none;
 * {@code access.Principal}: a service believes who an {@code /ops} call acts as only because the proof
 * covers it) and {@code timestamp} the Unix time in seconds, sent as {@value #TIMESTAMP_HEADER} beside
 * the proof in {@value #PROOF_HEADER}.
 *
 * <p>Keys: the first signs, every one verifies ({@link TrustConfig#key} says how a key rotates).
 * A proof is fresh while its timestamp is within {@code maxSkew} of this clock, either way.
 * Comparison is constant time ({@link MessageDigest#isEqual}). Pure: no CDI, no I/O.
 */
public final class ServiceProof {

    public static final String TIMESTAMP_HEADER = "X-Service-Timestamp";
    public static final String PROOF_HEADER = "X-Service-Proof";
    /** Shorter keys are refused at startup: a key is an HMAC-SHA256 secret, not a password. */
    public static final int MIN_KEY_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,12}");
    private static final Pattern PROOF = Pattern.compile("[0-9a-f]{64}");
    private static final HexFormat HEX = HexFormat.of();

    /** Why a call is refused, or that it is not. */
    public enum Verdict {
        PROVEN, MISSING, MALFORMED, STALE, INVALID
    }

    /** The two headers a signed call carries. */
    public record Signature(String timestamp, String proof) {
    }

    private final List<Key> keys;
    private final long maxSkewSeconds;
    private final Clock clock;

    public ServiceProof(List<String> keys, Duration maxSkew, Clock clock) {
        if (keys == null || keys.isEmpty()) {
            throw new IllegalArgumentException("platform.trust.key: at least one key is required");
        }
        for (String key : keys) {
            // Never the key itself in a message: only its length.
            if (key == null || key.strip().length() < MIN_KEY_LENGTH) {
                throw new IllegalArgumentException("platform.trust.key: every key needs at least " + MIN_KEY_LENGTH
                        + " characters (one has " + (key == null ? 0 : key.strip().length()) + ")");
            }
        }
        if (maxSkew.isNegative() || maxSkew.isZero()) {
            throw new IllegalArgumentException("platform.trust.max-skew must be positive");
        }
        this.keys = keys.stream().map(Key::of).toList();
        this.maxSkewSeconds = maxSkew.toSeconds();
        this.clock = clock;
    }

    /** Signs a call without a principal about to be sent: {@code sign(method, target, partnerId, null)}. */
    public Signature sign(String method, String target, String partnerId) {
        return sign(method, target, partnerId, null);
    }

    /**
     * Signs a call about to be sent with the first key; {@code partnerId} and {@code principal} (the
     * {@code X-Principal} header's value) null when the call carries none.
     */
    public Signature sign(String method, String target, String partnerId, String principal) {
        String timestamp = Long.toString(clock.instant().getEpochSecond());
        return new Signature(timestamp, HEX.formatHex(mac(keys.get(0), canonical(method, target, partnerId, principal, timestamp))));
    }

    /**
     * Checks a received call's two headers against what it is: its method, target, partner header and
     * principal header (null when it has none).
     */
    public Verdict verify(String method, String target, String partnerId, String principal, String timestamp, String proof) {
        if (timestamp == null || proof == null) {
            return Verdict.MISSING;
        }
        if (!TIMESTAMP.matcher(timestamp).matches() || !PROOF.matcher(proof).matches()
                || hasNewline(method, target, partnerId, principal)) {
            return Verdict.MALFORMED;
        }
        long skew = Math.abs(clock.instant().getEpochSecond() - Long.parseLong(timestamp));
        if (skew > maxSkewSeconds) {
            return Verdict.STALE;
        }
        byte[] presented = HEX.parseHex(proof);
        byte[] signed = canonical(method, target, partnerId, principal, timestamp);
        boolean matched = false;
        for (Key key : keys) {
            matched |= MessageDigest.isEqual(mac(key, signed), presented);
        }
        return matched ? Verdict.PROVEN : Verdict.INVALID;
    }

    static byte[] canonical(String method, String target, String partnerId, String principal, String timestamp) {
        if (hasNewline(method, target, partnerId, principal)) {
            throw new IllegalArgumentException("a signed part holds a line break");
        }
        return (method + "\n" + target + "\n" + (partnerId == null ? "" : partnerId) + "\n" + (principal == null ? "" : principal)
                + "\n" + timestamp).getBytes(StandardCharsets.UTF_8);
    }

    private static boolean hasNewline(String... parts) {
        for (String part : parts) {
            if (part != null && (part.indexOf('\n') >= 0 || part.indexOf('\r') >= 0)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] mac(Key key, byte[] data) {
        return key.copy().doFinal(data);
    }

    /**
     * A key and a MAC initialised with it once: every call uses a copy of that MAC. A {@link Mac} is not
     * thread-safe, and cloning one is cheaper than looking the algorithm up and keying a new one on
     * every call (issue 23).
     */
    private record Key(SecretKeySpec spec, Mac initialised) {

        static Key of(String secret) {
            SecretKeySpec spec = new SecretKeySpec(secret.strip().getBytes(StandardCharsets.UTF_8), ALGORITHM);
            return new Key(spec, keyed(spec));
        }

        Mac copy() {
            try {
                return (Mac) initialised.clone();
            } catch (CloneNotSupportedException e) {
                return keyed(spec); // a provider whose MACs cannot be cloned
            }
        }

        private static Mac keyed(SecretKeySpec spec) {
            try {
                Mac mac = Mac.getInstance(ALGORITHM);
                mac.init(spec);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is unavailable", e);
            }
        }
    }
}

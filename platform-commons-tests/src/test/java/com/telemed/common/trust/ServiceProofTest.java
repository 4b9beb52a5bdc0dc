package com.telemed.common.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.trust.ServiceProof.Signature;
import com.telemed.common.trust.ServiceProof.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The proof itself, on a fixed clock: what it covers, how long it lives, the keys it takes. */
class ServiceProofTest {

    private static final String KEY = "local-development-trust-key-not-a-secret";
    private static final String NEW_KEY = "a-new-deployment-key-of-enough-length-0001";
    private static final long NOW = 1_767_225_600L; // 2026-01-01T00:00:00Z
    private static final String TARGET = "/internal/members/7c1f4e2a-0000-4000-8000-000000000001?partnerId=partner-a";

    private static ServiceProof at(long epochSeconds, String... keys) {
        return new ServiceProof(List.of(keys), Duration.ofSeconds(60), Clock.fixed(Instant.ofEpochSecond(epochSeconds), ZoneOffset.UTC));
    }

    @Test
    void signsTheDocumentedStringWithHmacSha256InLowercaseHex() {
        // Fixed vectors (computed independently): a client in any language can be checked against them.
        assertEquals(new Signature("1767225600", "08aba7795e374198077a29fa0b5bc9bd3e828c8274080f99eb33c0fef1e0ab54"),
                at(NOW, KEY).sign("GET", TARGET, "partner-a"));
        assertEquals(new Signature("1767225600", "cd82c8c5f4abb0d75e421249879cadbb7e19782778aeb3c474c9046f71e6182e"),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", null));
        assertEquals(at(NOW, KEY).sign("POST", "/internal/requests/summaries", null),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", ""));
    }

    @Test
    void oneInstanceSignsAndVerifiesFromManyThreadsAtOnce() throws Exception {
        // Each key's MAC is initialised once and copied per call: copies must never share state.
        ServiceProof proof = at(NOW, KEY, NEW_KEY);
        String expected = "08aba7795e374198077a29fa0b5bc9bd3e828c8274080f99eb33c0fef1e0ab54";
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int task = 0; task < 64; task++) {
                results.add(threads.submit(() -> {
                    for (int call = 0; call < 500; call++) {
                        Signature signature = proof.sign("GET", TARGET, "partner-a");
                        if (!signature.proof().equals(expected)
                                || proof.verify("GET", TARGET, "partner-a", signature.timestamp(), signature.proof()) != Verdict.PROVEN
                                || proof.verify("GET", TARGET, "partner-b", signature.timestamp(), signature.proof()) != Verdict.INVALID) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(result.get(60, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void provesExactlyTheCallItWasMadeFor() {
        Signature signature = at(NOW, KEY).sign("GET", TARGET, "partner-a");
        ServiceProof verifier = at(NOW, KEY);
        assertEquals(Verdict.PROVEN, verifier.verify("GET", TARGET, "partner-a", signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("POST", TARGET, "partner-a", signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("get", TARGET, "partner-a", signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", "/internal/members/other?partnerId=partner-a", "partner-a",
                signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET.replace("partner-a", "partner-b"), "partner-a",
                signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET + "&limit=1", "partner-a", signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET, "partner-b", signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET, null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET, "partner-a", String.valueOf(NOW - 1), signature.proof()));
        assertEquals(Verdict.INVALID, at(NOW, NEW_KEY).verify("GET", TARGET, "partner-a", signature.timestamp(), signature.proof()));
    }

    @Test
    void isFreshWithinTheSkewEitherWayAndStaleBeyond() {
        ServiceProof verifier = at(NOW, KEY);
        for (long signedAt : new long[] {NOW - 60, NOW - 1, NOW + 60}) {
            Signature signature = at(signedAt, KEY).sign("GET", TARGET, "partner-a");
            assertEquals(Verdict.PROVEN, verifier.verify("GET", TARGET, "partner-a", signature.timestamp(), signature.proof()), "signed at " + signedAt);
        }
        for (long signedAt : new long[] {NOW - 61, NOW + 61, 0}) {
            Signature signature = at(signedAt, KEY).sign("GET", TARGET, "partner-a");
            assertEquals(Verdict.STALE, verifier.verify("GET", TARGET, "partner-a", signature.timestamp(), signature.proof()), "signed at " + signedAt);
        }
    }

    @Test
    void missingOrMalformedHeadersAreNoProof() {
        ServiceProof verifier = at(NOW, KEY);
        String proof = verifier.sign("GET", TARGET, "partner-a").proof();
        assertEquals(Verdict.MISSING, verifier.verify("GET", TARGET, "partner-a", null, proof));
        assertEquals(Verdict.MISSING, verifier.verify("GET", TARGET, "partner-a", "1767225600", null));
        for (String timestamp : List.of("", "-1767225600", "1767225600.0", " 1767225600", "9999999999999", "17672256OO")) {
            assertEquals(Verdict.MALFORMED, verifier.verify("GET", TARGET, "partner-a", timestamp, proof), timestamp);
        }
        for (String malformed : List.of("", proof.toUpperCase(), proof.substring(2), proof + "00", "sha256=" + proof)) {
            assertEquals(Verdict.MALFORMED, verifier.verify("GET", TARGET, "partner-a", "1767225600", malformed), malformed);
        }
        // A line break would let one part pass for two.
        assertEquals(Verdict.MALFORMED, verifier.verify("GET", TARGET, "partner-a\n1767225600", "1767225600", proof));
        assertThrows(IllegalArgumentException.class, () -> verifier.sign("GET", TARGET + "\n", "partner-a"));
    }

    @Test
    void theFirstKeySignsAndEveryKeyVerifiesSoAKeyRotatesWithoutDowntime() {
        Signature byOld = at(NOW, KEY).sign("GET", TARGET, "partner-a");
        Signature byNew = at(NOW, NEW_KEY, KEY).sign("GET", TARGET, "partner-a");
        assertEquals(at(NOW, NEW_KEY).sign("GET", TARGET, "partner-a"), byNew);
        ServiceProof duringRotation = at(NOW, NEW_KEY, KEY);
        assertEquals(Verdict.PROVEN, duringRotation.verify("GET", TARGET, "partner-a", byOld.timestamp(), byOld.proof()));
        assertEquals(Verdict.PROVEN, duringRotation.verify("GET", TARGET, "partner-a", byNew.timestamp(), byNew.proof()));
        ServiceProof afterRotation = at(NOW, NEW_KEY);
        assertEquals(Verdict.INVALID, afterRotation.verify("GET", TARGET, "partner-a", byOld.timestamp(), byOld.proof()));
        // Whitespace around a key (a Secret's trailing newline) is not part of it.
        assertEquals(byOld, at(NOW, " " + KEY + "\n").sign("GET", TARGET, "partner-a"));
    }

    @Test
    void refusesMissingOrShortKeysWithoutNamingThem() {
        assertThrows(IllegalArgumentException.class, () -> new ServiceProof(List.of(), Duration.ofSeconds(60), Clock.systemUTC()));
        IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class,
                () -> new ServiceProof(List.of(KEY, "short-secret-value"), Duration.ofSeconds(60), Clock.systemUTC()));
        assertEquals("platform.trust.key: every key needs at least 32 characters (one has 18)", shortKey.getMessage());
        assertFalse(shortKey.getMessage().contains("short-secret-value"));
        assertThrows(IllegalArgumentException.class, () -> new ServiceProof(List.of(KEY), Duration.ZERO, Clock.systemUTC()));
    }
}

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
        // Fixed vectors (computed independently, Python's hmac over
        // "METHOD\ntarget\npartnerId\nprincipal\ntimestamp"): a client in any language can be checked against them.
        assertEquals(new Signature("1767225600", "fe4ac0cad19e35fcfa5e265c01bfb08b1895185f4c7e53a492bb66fa4c356869"),
                at(NOW, KEY).sign("GET", TARGET, "partner-a"));
        assertEquals(new Signature("1767225600", "e3252d361b13bb1365f73ca1b253058c1ef233bc22b3185936c96e29a9a90acc"),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", null));
        assertEquals(new Signature("1767225600", "91eaadac7b868a0f3d575be7a6cd5139b9d61941f0e1168c04c9f5ecdd0d0763"),
                at(NOW, KEY).sign("POST", "/ops/v1/requests/r-1/claim", null, "person:acc_1:prescriber:pr_9"));
        assertEquals(new Signature("1767225600", "855d814a8f79361b54253bf9c895755e0c0669e960ba4366744b33e38ce28a23"),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", null, "service:members-service"));
        assertEquals(at(NOW, KEY).sign("POST", "/internal/requests/summaries", null),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", ""));
        assertEquals(at(NOW, KEY).sign("POST", "/internal/requests/summaries", null),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", null, null));
        assertEquals(at(NOW, KEY).sign("POST", "/internal/requests/summaries", null, null),
                at(NOW, KEY).sign("POST", "/internal/requests/summaries", null, ""));
    }

    @Test
    void provesExactlyThePrincipalItWasMadeWith() {
        // A service believes X-Principal only because the proof covers it (issue #40).
        String principal = "person:acc_1:prescriber:pr_9";
        String target = "/ops/v1/requests/r-1/claim";
        Signature signature = at(NOW, KEY).sign("POST", target, null, principal);
        ServiceProof verifier = at(NOW, KEY);
        assertEquals(Verdict.PROVEN, verifier.verify("POST", target, null, principal, signature.timestamp(), signature.proof()));
        // Changed (another person, more roles, another prescriber), dropped, or added to a proof made without one.
        for (String other : new String[] {"person:acc_2:prescriber:pr_9", "person:acc_1:admin,prescriber:pr_9",
                "person:acc_1:prescriber:pr_8", "operator_key:service", "", null}) {
            assertEquals(Verdict.INVALID, verifier.verify("POST", target, null, other, signature.timestamp(), signature.proof()), other);
        }
        Signature without = at(NOW, KEY).sign("POST", target, null);
        assertEquals(Verdict.INVALID, verifier.verify("POST", target, null, "operator_key:service", without.timestamp(), without.proof()));
        assertEquals(Verdict.PROVEN, verifier.verify("POST", target, null, null, without.timestamp(), without.proof()));
        // Partner and principal are separate lines: one cannot pass for the other.
        Signature partnerOnly = at(NOW, KEY).sign("POST", target, "operator_key:service");
        assertEquals(Verdict.INVALID, verifier.verify("POST", target, null, "operator_key:service", partnerOnly.timestamp(), partnerOnly.proof()));
        // A line break in the principal would let it pass for two lines.
        assertEquals(Verdict.MALFORMED, verifier.verify("POST", target, null, "operator_key:service\n" + NOW, signature.timestamp(),
                signature.proof()));
        assertThrows(IllegalArgumentException.class, () -> verifier.sign("POST", target, null, "operator_key:service\n"));
    }

    @Test
    void oneInstanceSignsAndVerifiesFromManyThreadsAtOnce() throws Exception {
        // Each key's MAC is initialised once and copied per call: copies must never share state.
        ServiceProof proof = at(NOW, KEY, NEW_KEY);
        String expected = "fe4ac0cad19e35fcfa5e265c01bfb08b1895185f4c7e53a492bb66fa4c356869";
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int task = 0; task < 64; task++) {
                results.add(threads.submit(() -> {
                    for (int call = 0; call < 500; call++) {
                        Signature signature = proof.sign("GET", TARGET, "partner-a");
                        if (!signature.proof().equals(expected)
                                || proof.verify("GET", TARGET, "partner-a", null, signature.timestamp(), signature.proof()) != Verdict.PROVEN
                                || proof.verify("GET", TARGET, "partner-b", null, signature.timestamp(), signature.proof()) != Verdict.INVALID) {
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
        assertEquals(Verdict.PROVEN, verifier.verify("GET", TARGET, "partner-a", null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("POST", TARGET, "partner-a", null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("get", TARGET, "partner-a", null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", "/internal/members/other?partnerId=partner-a", "partner-a", null,
                signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET.replace("partner-a", "partner-b"), "partner-a", null,
                signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET + "&limit=1", "partner-a", null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET, "partner-b", null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET, null, null, signature.timestamp(), signature.proof()));
        assertEquals(Verdict.INVALID, verifier.verify("GET", TARGET, "partner-a", null, String.valueOf(NOW - 1), signature.proof()));
        assertEquals(Verdict.INVALID, at(NOW, NEW_KEY).verify("GET", TARGET, "partner-a", null, signature.timestamp(), signature.proof()));
    }

    @Test
    void isFreshWithinTheSkewEitherWayAndStaleBeyond() {
        ServiceProof verifier = at(NOW, KEY);
        for (long signedAt : new long[] {NOW - 60, NOW - 1, NOW + 60}) {
            Signature signature = at(signedAt, KEY).sign("GET", TARGET, "partner-a");
            assertEquals(Verdict.PROVEN, verifier.verify("GET", TARGET, "partner-a", null, signature.timestamp(), signature.proof()), "signed at " + signedAt);
        }
        for (long signedAt : new long[] {NOW - 61, NOW + 61, 0}) {
            Signature signature = at(signedAt, KEY).sign("GET", TARGET, "partner-a");
            assertEquals(Verdict.STALE, verifier.verify("GET", TARGET, "partner-a", null, signature.timestamp(), signature.proof()), "signed at " + signedAt);
        }
    }

    @Test
    void missingOrMalformedHeadersAreNoProof() {
        ServiceProof verifier = at(NOW, KEY);
        String proof = verifier.sign("GET", TARGET, "partner-a").proof();
        assertEquals(Verdict.MISSING, verifier.verify("GET", TARGET, "partner-a", null, null, proof));
        assertEquals(Verdict.MISSING, verifier.verify("GET", TARGET, "partner-a", null, "1767225600", null));
        for (String timestamp : List.of("", "-1767225600", "1767225600.0", " 1767225600", "9999999999999", "17672256OO")) {
            assertEquals(Verdict.MALFORMED, verifier.verify("GET", TARGET, "partner-a", null, timestamp, proof), timestamp);
        }
        for (String malformed : List.of("", proof.toUpperCase(), proof.substring(2), proof + "00", "sha256=" + proof)) {
            assertEquals(Verdict.MALFORMED, verifier.verify("GET", TARGET, "partner-a", null, "1767225600", malformed), malformed);
        }
        // A line break would let one part pass for two.
        assertEquals(Verdict.MALFORMED, verifier.verify("GET", TARGET, "partner-a\n1767225600", null, "1767225600", proof));
        assertThrows(IllegalArgumentException.class, () -> verifier.sign("GET", TARGET + "\n", "partner-a"));
    }

    @Test
    void theFirstKeySignsAndEveryKeyVerifiesSoAKeyRotatesWithoutDowntime() {
        Signature byOld = at(NOW, KEY).sign("GET", TARGET, "partner-a");
        Signature byNew = at(NOW, NEW_KEY, KEY).sign("GET", TARGET, "partner-a");
        assertEquals(at(NOW, NEW_KEY).sign("GET", TARGET, "partner-a"), byNew);
        ServiceProof duringRotation = at(NOW, NEW_KEY, KEY);
        assertEquals(Verdict.PROVEN, duringRotation.verify("GET", TARGET, "partner-a", null, byOld.timestamp(), byOld.proof()));
        assertEquals(Verdict.PROVEN, duringRotation.verify("GET", TARGET, "partner-a", null, byNew.timestamp(), byNew.proof()));
        ServiceProof afterRotation = at(NOW, NEW_KEY);
        assertEquals(Verdict.INVALID, afterRotation.verify("GET", TARGET, "partner-a", null, byOld.timestamp(), byOld.proof()));
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

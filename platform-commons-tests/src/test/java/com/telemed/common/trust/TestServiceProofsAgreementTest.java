package com.telemed.common.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.telemed.common.access.Principal;
import com.telemed.common.access.Principal.Role;
import com.telemed.common.trust.ServiceProof.Verdict;
import com.telemed.testkit.trust.TestServiceProofs;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The testkit signs direct calls in tests and tools with a copy of the proof (it is built before
 * platform-commons): both must make the same bytes, and take the same target from a URI.
 */
class TestServiceProofsAgreementTest {

    private static final String KEY = TestServiceProofs.DEVELOPMENT_KEY;

    @Test
    void theTestkitSignsAsTheServicesVerify() {
        long now = 1_767_225_600L;
        ServiceProof proof = new ServiceProof(List.of(KEY), Duration.ofSeconds(60), Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC));
        for (String partnerId : new String[] {"partner-a", null}) {
            Map<String, String> headers = TestServiceProofs.headers(KEY, "POST", "/internal/members/batch", partnerId, now);
            assertEquals(proof.sign("POST", "/internal/members/batch", partnerId),
                    new ServiceProof.Signature(headers.get(ServiceProof.TIMESTAMP_HEADER), headers.get(ServiceProof.PROOF_HEADER)));
        }
        assertEquals(ServiceProof.TIMESTAMP_HEADER, TestServiceProofs.TIMESTAMP_HEADER);
        assertEquals(ServiceProof.PROOF_HEADER, TestServiceProofs.PROOF_HEADER);
    }

    @Test
    void theTestkitSignsThePrincipalAsTheServicesVerify() {
        long now = 1_767_225_600L;
        ServiceProof proof = new ServiceProof(List.of(KEY), Duration.ofSeconds(60), Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC));
        // A direct call to /ops acts as the operator key unless told otherwise; any other carries no principal.
        Map<String, String> ops = TestServiceProofs.headers(KEY, "POST", "/ops/v1/requests/r-1/claim", null, now);
        assertEquals(Principal.operatorKey().header(), ops.get(Principal.HEADER));
        assertEquals(Verdict.PROVEN, proof.verify("POST", "/ops/v1/requests/r-1/claim", null, ops.get(Principal.HEADER),
                ops.get(ServiceProof.TIMESTAMP_HEADER), ops.get(ServiceProof.PROOF_HEADER)));
        assertFalse(TestServiceProofs.headers(KEY, "GET", "/internal/members/x", null, now).containsKey(Principal.HEADER));
        // The testkit's principals are the platform's forms.
        String person = TestServiceProofs.person("acc_1", "pr_9", "admin", "prescriber");
        assertEquals(Principal.person("acc_1", EnumSet.of(Role.ADMIN, Role.PRESCRIBER), Optional.of("pr_9")).header(), person);
        assertEquals(Principal.person("acc_2", Set.of(Role.SUPPORT), Optional.empty()).header(), TestServiceProofs.person("acc_2", null, "support"));
        assertEquals(Principal.pharmacy("ph_1").header(), TestServiceProofs.pharmacy("ph_1"));
        assertEquals(Principal.operatorKey().header(), TestServiceProofs.OPERATOR_KEY);
        assertEquals(Principal.HEADER, TestServiceProofs.PRINCIPAL_HEADER);
        Map<String, String> asPerson = TestServiceProofs.headers(KEY, "GET", "/ops/v1/review/queue", "partner-a", person, now);
        assertEquals(person, asPerson.get(Principal.HEADER));
        assertEquals(proof.sign("GET", "/ops/v1/review/queue", "partner-a", person),
                new ServiceProof.Signature(asPerson.get(ServiceProof.TIMESTAMP_HEADER), asPerson.get(ServiceProof.PROOF_HEADER)));
    }

    @Test
    void bothTakeTheRawTargetFromAUri() {
        for (String uri : List.of("http://127.0.0.1:8082/internal/members/a%20b?partnerId=p%2Bq&x=1", "http://127.0.0.1:8082",
                "http://h/internal/drugs/semaglutide")) {
            assertEquals(ServiceProofSigner.target(URI.create(uri)), TestServiceProofs.target(URI.create(uri)), uri);
        }
        assertEquals("/internal/members/a%20b?partnerId=p%2Bq&x=1",
                ServiceProofSigner.target(URI.create("http://127.0.0.1:8082/internal/members/a%20b?partnerId=p%2Bq&x=1")));
        assertEquals("/", ServiceProofSigner.target(URI.create("http://127.0.0.1:8082")));
    }
}

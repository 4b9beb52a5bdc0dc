package com.telemed.common.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.trust.TestServiceProofs;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
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

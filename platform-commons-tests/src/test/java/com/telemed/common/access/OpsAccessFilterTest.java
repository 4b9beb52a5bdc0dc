package com.telemed.common.access;

import static com.telemed.testkit.http.Refusals.assertAnswer;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.trust.ServiceProofFilter;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link OpsAccessFilter} in a running application (the probe operations of {@link ProbeOpsResource}),
 * called as the gateway would call a service: signed, with the principal the proof covers.
 */
@QuarkusTest
class OpsAccessFilterTest {

    private static final String ADMIN = TestServiceProofs.person("acc_1", null, "admin");
    private static final String SUPPORT = TestServiceProofs.person("acc_2", null, "support");

    @Test
    void anAllowedPrincipalIsServedAndTheResourceSeesIt() {
        // Signed as the operator key by default (testkit's ServiceProofFilter), as the gateway forwards x-ops-key.
        assertAnswer(given().get("/ops/v1/drugs"), 200, "{\"principal\":\"operator_key:service\"}");
        assertAnswer(given().header(Principal.HEADER, ADMIN).get("/ops/v1/drugs"), 200, "{\"principal\":\"person:acc_1:admin:\"}");
        given().header(Principal.HEADER, ADMIN).head("/ops/v1/drugs").then().statusCode(200);
        given().header(Principal.HEADER, SUPPORT).head("/ops/v1/drugs").then().statusCode(403);
        // A regular expression in a placeholder and a trailing slash are not part of the operation.
        assertAnswer(given().header(Principal.HEADER, SUPPORT).get("/ops/v1/conversations/c-1/messages"), 200,
                "{\"principal\":\"person:acc_2:support:\",\"id\":\"c-1\"}");
    }

    @Test
    void aPrincipalTheTableDoesNotAllowIsForbidden() {
        assertAnswer(given().header(Principal.HEADER, SUPPORT).get("/ops/v1/drugs"), 403, "{\"error\":\"Forbidden\"}");
        assertAnswer(given().header(Principal.HEADER, TestServiceProofs.pharmacy("ph_1")).get("/ops/v1/drugs"), 403, "{\"error\":\"Forbidden\"}");
        assertAnswer(given().header(Principal.HEADER, "service:platform-commons").get("/ops/v1/drugs"), 403, "{\"error\":\"Forbidden\"}");
    }

    @Test
    void anOperationTheTableDoesNotListIsForbiddenToEveryone() {
        assertAnswer(given().get("/ops/v1/probe-unlisted"), 403, "{\"error\":\"Forbidden\"}");
        assertAnswer(given().header(Principal.HEADER, ADMIN).get("/ops/v1/probe-unlisted"), 403, "{\"error\":\"Forbidden\"}");
    }

    @Test
    void noPrincipalOrAnUnreadableOneIsAnInvalidToken() {
        // Signed, but without a principal (an empty header signs none).
        assertAnswer(given().header(Principal.HEADER, "").get("/ops/v1/drugs"), 401, "{\"error\":\"Invalid token\"}");
        assertAnswer(given().header(Principal.HEADER, "").get("/ops/v1/probe-unlisted"), 401, "{\"error\":\"Invalid token\"}");
        for (String unreadable : new String[] {"person:acc_1", "operator_key:someone", "person:acc_1:root:", "admin"}) {
            assertAnswer(given().header(Principal.HEADER, unreadable).get("/ops/v1/drugs"), 401, "{\"error\":\"Invalid token\"}");
        }
        // Outside /ops a call needs no principal.
        given().header(Principal.HEADER, "").get("/probe/time").then().statusCode(200);
    }

    @Test
    void aPrincipalTheProofDoesNotCoverIsNoProof() {
        String key = SignedQuarkusTests.applicationKey();
        long now = Instant.now().getEpochSecond();
        // Signed as the operator key, sent as an administrator: refused before anything reads it.
        Map<String, String> changed = new HashMap<>(TestServiceProofs.headers(key, "GET", "/ops/v1/drugs", null, TestServiceProofs.OPERATOR_KEY, now));
        changed.put(Principal.HEADER, ADMIN);
        assertAnswer(given().noFiltersOfType(ServiceProofFilter.class).headers(changed).get("/ops/v1/drugs"), 401, "{\"error\":\"Unauthorized\"}");
        // Signed without one, a principal added.
        assertAnswer(given().noFiltersOfType(ServiceProofFilter.class)
                .headers(TestServiceProofs.headers(key, "GET", "/probe/time", null, null, now))
                .header(Principal.HEADER, ADMIN)
                .get("/probe/time"), 401, "{\"error\":\"Unauthorized\"}");
        // Two principals, one of them signed.
        assertAnswer(given().noFiltersOfType(ServiceProofFilter.class)
                .headers(TestServiceProofs.headers(key, "GET", "/ops/v1/drugs", null, SUPPORT, now))
                .header(Principal.HEADER, ADMIN)
                .get("/ops/v1/drugs"), 401, "{\"error\":\"Unauthorized\"}");
    }
}

package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #13, faults: with members-service's real process stopped, {@code POST /v1/requests}
 * answers {@code 503 {"error":"Service Unavailable"}} within requests-service's remote-call
 * bounds (connect 1 s, read 3 s, 2 attempts), writes nothing, and works again on its own once
 * members-service is back (the circuit breaker's trial call closes it). A member requests-service
 * already holds a copy of (issue 23) is created for all along. Runs on the shared
 * platform; the {@code finally} brings members-service back if the test fails while it is down.
 */
@ExtendWith(RunningPlatform.class)
class MembersOutageThroughGatewayIT {

    /** Two attempts of connect (1 s) plus read (3 s) and the back-off, with room for a loaded machine. */
    private static final long ANSWER_BOUND_MS = 10_000;

    @Test
    void createAnswers503WritesNothingAndRecoversWhenMembersComesBack(RunningPlatform.Handle platform) {
        RequestSpecification ops = given().baseUri(platform.gateway().toString())
                .header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
        String apiKey = ops.body(Map.of("name", "Members Outage E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("apiKey");
        String drugId = "outage-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                .body("""
                        {"name": "Outage Drug", "classification": "non-controlled", "skus": [],
                         "pharmacy": {"id": "sandbox", "method": "integration_a"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        String memberId = member(platform, apiKey, "Ada", "Lovelace", "NY");
        Map<String, Object> body = Map.of("memberId", memberId, "caseNotes", "outage check",
                "items", List.of(Map.of("drugId", drugId)));
        // Issue 23: a member a create has already read is in requests-service's copy, so creates for it
        // need no members-service (another partner, so that the first partner's list stays empty).
        String knownKey = ops.body(Map.of("name", "Members Outage E2E known " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("apiKey");
        String knownMember = member(platform, knownKey, "Alan", "Turing", "NJ");
        Map<String, Object> known = Map.of("memberId", knownMember, "caseNotes", "before the outage",
                "items", List.of(Map.of("drugId", drugId)));
        partner(platform, knownKey).body(known).post("/v1/requests").then().statusCode(201);

        String during;
        Platform services = platform.platform();
        services.stop(PlatformService.MEMBERS);
        try {
            for (int call = 0; call < 3; call++) {
                Response refused = partner(platform, apiKey).header("Idempotency-Key", "outage-" + call).body(body)
                        .post("/v1/requests");
                assertEquals(503, refused.statusCode(), refused.asString());
                assertEquals("{\"error\":\"Service Unavailable\"}", refused.asString());
                assertTrue(refused.time() < ANSWER_BOUND_MS, "answered in " + refused.time() + " ms");
            }
            partner(platform, apiKey).get("/v1/requests")
                    .then().statusCode(200).body("pagination.total", equalTo(0)).body("requests", equalTo(List.of()));
            during = partner(platform, knownKey).body(known).post("/v1/requests")
                    .then().statusCode(201).extract().path("requestId");
        } finally {
            services.startAgain(PlatformService.MEMBERS);
        }

        // No call from the test reopens anything: the next creates succeed once the breaker's delay has passed.
        String requestId = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    Response created = partner(platform, apiKey).header("Idempotency-Key", "outage-0").body(body)
                            .post("/v1/requests");
                    return created.statusCode() == 201 ? created.<String>path("requestId") : null;
                }, id -> id != null);
        partner(platform, apiKey).get("/v1/requests")
                .then().statusCode(200).body("pagination.total", equalTo(1)).body("requests[0].id", equalTo(requestId));
        // (A request's single read embeds the member from members-service, so it is read back now.)
        partner(platform, knownKey).get("/v1/requests/" + during).then().statusCode(200)
                .body("memberId", equalTo(knownMember)).body("memberName", equalTo("Alan Turing")).body("memberState", equalTo("NJ"));
    }

    /** A new member of the key's partner, living in {@code state}; returns its id. */
    private static String member(RunningPlatform.Handle platform, String apiKey, String firstName, String lastName, String state) {
        return partner(platform, apiKey).body(Map.of("firstName", firstName, "lastName", lastName,
                        "email", firstName.toLowerCase() + "." + UUID.randomUUID() + "@example.com", "dateOfBirth", "1815-12-10",
                        "state", state, "address", Map.of("street1", "1 Engine St", "city", "Albany", "state", state, "zipCode", "12207")))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
    }

    private static RequestSpecification partner(RunningPlatform.Handle platform, String apiKey) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).contentType(ContentType.JSON);
    }
}

package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 23: requests-service snapshots a create's member from its own copy instead of calling
 * members-service, and a member change members-service has answered is never missed by a create sent
 * after it. Each change is followed at once by a create, through the gateway, as a partner would.
 */
@ExtendWith(RunningPlatform.class)
class MemberSnapshotThroughGatewayIT {

    private static RequestSpecification ops(RunningPlatform.Handle platform) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private static RequestSpecification as(RunningPlatform.Handle platform, String key) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", key).contentType(ContentType.JSON);
    }

    private static String create(RunningPlatform.Handle platform, String key, Map<String, Object> body) {
        return as(platform, key).body(body).post("/v1/requests").then().statusCode(201).extract().path("requestId");
    }

    @Test
    void everyCreateSentAfterAMemberChangeSnapshotsThatChange(RunningPlatform.Handle platform) throws Exception {
        String key = ops(platform).body(Map.of("name", "Member snapshot E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("apiKey");
        String drugId = "snap-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops(platform).body("""
                        {"name": "Semaglutide E2E", "classification": "non-controlled",
                         "skus": [{"label": "2.5 mg/mL vial", "packageSize": 2,
                                   "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}, "active": true}],
                         "pharmacy": {"id": "sandbox", "method": "integration_a"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        String email = "grace." + UUID.randomUUID() + "@example.com";
        String memberId = as(platform, key).body("""
                        {"firstName": "Grace", "lastName": "Hopper", "email": "%s", "dateOfBirth": "1906-12-09", "state": "VA",
                         "address": {"street1": "1 Navy Way", "city": "Arlington", "state": "VA", "zipCode": "22201"}}"""
                        .formatted(email))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
        Map<String, Object> byId = Map.of("memberId", memberId, "caseNotes", "Member snapshot check", "items", List.of(Map.of("drugId", drugId)));

        String first = create(platform, key, byId);
        create(platform, key, byId); // the copy answers this one
        as(platform, key).get("/v1/requests/" + first).then().statusCode(200)
                .body("memberState", equalTo("VA")).body("memberName", equalTo("Grace Hopper"))
                .body("memberDob", equalTo("1906-12-09")).body("memberEmail", equalTo(email));

        List<String> states = List.of("NY", "CA", "TX", "WA", "VA", "OR");
        for (int round = 0; round < states.size(); round++) {
            String state = states.get(round);
            String lastName = "Hopper" + round;
            as(platform, key).body(Map.of("state", state, "lastName", lastName, "dateOfBirth", "1906-12-1" + round))
                    .put("/v1/members/" + memberId).then().statusCode(200).body("member.state", equalTo(state));
            for (int create = 0; create < 3; create++) {
                String requestId = create(platform, key, byId);
                as(platform, key).get("/v1/requests/" + requestId).then().statusCode(200)
                        .body("memberState", equalTo(state)).body("memberName", equalTo("Grace " + lastName))
                        .body("memberDob", equalTo("1906-12-1" + round));
            }
        }

        // The inline member of a create changes the member too; a create by id right after it sees that change.
        String inline = create(platform, key, Map.of("caseNotes", "Inline member change", "items", List.of(Map.of("drugId", drugId)),
                "member", Map.of("firstName", "Grace", "lastName", "Inline", "email", email.toUpperCase(),
                        "dateOfBirth", "1906-12-09", "state", "MA",
                        "address", Map.of("street1", "1 Navy Way", "city", "Boston", "state", "MA", "zipCode", "02101"))));
        as(platform, key).get("/v1/requests/" + inline).then().statusCode(200)
                .body("memberId", equalTo(memberId)).body("memberState", equalTo("MA"));
        String after = create(platform, key, byId);
        as(platform, key).get("/v1/requests/" + after).then().statusCode(200)
                .body("memberState", equalTo("MA")).body("memberName", equalTo("Grace Inline"));
        as(platform, key).get("/v1/members/" + memberId).then().statusCode(200).body("state", equalTo("MA"));

        // Concurrent creates with one inline member each change it: each change is fenced in turn (a stale fence
        // is answered with the next one), and every create succeeds for the one member.
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> creates = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String state = List.of("AZ", "CO", "UT", "NM").get(i % 4);
                Map<String, Object> body = Map.of("caseNotes", "Inline member race " + i, "items", List.of(Map.of("drugId", drugId)),
                        "member", Map.of("firstName", "Grace", "lastName", "Racer", "email", email, "dateOfBirth", "1906-12-09",
                                "state", state, "address", Map.of("street1", "1 Navy Way", "city", "Phoenix", "state", state,
                                        "zipCode", "85001")));
                creates.add(callers.submit(() -> create(platform, key, body)));
            }
            for (Future<String> created : creates) {
                as(platform, key).get("/v1/requests/" + created.get()).then().statusCode(200).body("memberId", equalTo(memberId));
            }
        } finally {
            callers.shutdownNow();
        }
        String last = as(platform, key).get("/v1/members/" + memberId).then().statusCode(200).extract().path("state");
        String next = create(platform, key, byId);
        as(platform, key).get("/v1/requests/" + next).then().statusCode(200).body("memberState", equalTo(last));
    }
}

package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * /v1/members through the gateway with real API keys: the partner comes from the key, never from
 * the caller, and another partner's member is unknown on every verb.
 *
 * <p>The member's request summaries and the delete rule are answered by requests-service
 * (RequestReviewThroughGatewayIT covers a member with requests).
 */
@ExtendWith(RunningPlatform.class)
class MembersThroughGatewayIT {

    private static String apiKey(RunningPlatform.Handle platform, String name) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                .contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("apiKey");
    }

    private static RequestSpecification as(RunningPlatform.Handle platform, String key) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", key);
    }

    @Test
    void createReadListUpdateIsolateAndDelete(RunningPlatform.Handle platform) {
        String key = apiKey(platform, "Members E2E " + UUID.randomUUID());
        String otherKey = apiKey(platform, "Members E2E other " + UUID.randomUUID());
        String marker = "zq" + UUID.randomUUID().toString().substring(0, 8);

        String id = as(platform, key).contentType(ContentType.JSON).body("""
                        {"firstName": "Grace", "lastName": "%s", "email": "grace.%s@example.com",
                         "dateOfBirth": "1906-12-09", "state": "VA", "gender": "f",
                         "address": {"street1": "1 Navy Way", "city": "Arlington", "state": "VA", "zipCode": "22201"}}"""
                        .formatted(marker, marker))
                .post("/v1/members")
                .then().statusCode(201)
                .body("success", equalTo(true))
                .body("member.status", equalTo("active"))
                .body("member.gender", equalTo("f"))
                .body("member.partnerId", org.hamcrest.Matchers.notNullValue())
                .extract().path("member.id");
        as(platform, key).contentType(ContentType.JSON).body("""
                        {"firstName": "Alan", "lastName": "Other", "email": "alan@example.com",
                         "dateOfBirth": "1912-06-23", "state": "NY",
                         "address": {"street1": "2 Main St", "city": "Albany", "state": "NY", "zipCode": "12207"}}""")
                .post("/v1/members").then().statusCode(201);

        as(platform, key).get("/v1/members/" + id)
                .then().statusCode(200)
                .body("id", equalTo(id))
                .body("lastName", equalTo(marker))
                .body("shippingAddress", nullValue())
                .body("requests", equalTo(List.of()))
                .body("gender", nullValue());

        as(platform, key).queryParam("search", marker.toUpperCase()).get("/v1/members")
                .then().statusCode(200)
                .body("members.id", equalTo(List.of(id)))
                .body("members[0].requests", equalTo(List.of()))
                .body("pagination.total", equalTo(1));

        as(platform, key).contentType(ContentType.JSON).body("{\"status\": \"paused\", \"phone\": \"555-0100\"}")
                .put("/v1/members/" + id)
                .then().statusCode(200)
                .body("success", equalTo(true))
                .body("member.status", equalTo("paused"))
                .body("member.phone", equalTo("555-0100"));
        as(platform, key).queryParam("status", "paused").get("/v1/members")
                .then().statusCode(200).body("members.id", equalTo(List.of(id)));

        // Another partner: the member does not exist for it, whatever the verb.
        as(platform, otherKey).get("/v1/members/" + id)
                .then().statusCode(404).body("error", equalTo("Member not found"));
        as(platform, otherKey).contentType(ContentType.JSON).body("{\"status\": \"cancelled\"}")
                .put("/v1/members/" + id)
                .then().statusCode(404).body("error", equalTo("Member not found"));
        as(platform, otherKey).delete("/v1/members/" + id)
                .then().statusCode(404).body("error", equalTo("Member not found"));
        as(platform, otherKey).get("/v1/members")
                .then().statusCode(200).body("members", equalTo(List.of()));
        // A partner id sent by the caller is ignored: the key decides.
        as(platform, otherKey).header("X-Partner-Id", "forged").get("/v1/members/" + id)
                .then().statusCode(404);

        // requests-service agrees to the delete (no requests), so the member goes.
        as(platform, key).delete("/v1/members/" + id)
                .then().statusCode(204).body(equalTo(""));
        as(platform, key).get("/v1/members/" + id)
                .then().statusCode(404).body("error", equalTo("Member not found"));
        as(platform, key).delete("/v1/members/" + UUID.randomUUID())
                .then().statusCode(404).body("error", equalTo("Member not found"));
    }
}

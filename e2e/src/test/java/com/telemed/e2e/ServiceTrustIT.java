package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.PlatformService;
import com.telemed.testkit.trust.ServiceProofFilter;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packaged services, started as ./stack starts them: whoever reaches a service's port directly
 * gets {@code 401 {"error":"Unauthorized"}} for anything but the probes, with any partner header;
 * through the gateway (which proves each forward) the same member is served, and a call signed with
 * the deployment's key directly is served too.
 */
@ExtendWith(RunningPlatform.class)
class ServiceTrustIT {

    private static final String UNAUTHORIZED = "{\"error\":\"Unauthorized\"}";

    private static void refused(Response response) {
        response.then().statusCode(401).contentType(ContentType.JSON);
        assertEquals(UNAUTHORIZED, response.body().asString());
    }

    @Test
    void aServicePortServesNothingWithoutAProofItsProbesAreOnTheManagementPort(RunningPlatform.Handle platform) {
        Map<String, Object> created = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                .contentType(ContentType.JSON).body(Map.of("name", "Trust E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("");
        @SuppressWarnings("unchecked")
        String partnerId = ((Map<String, Object>) created.get("partner")).get("id").toString();
        String apiKey = created.get("apiKey").toString();
        String memberId = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).contentType(ContentType.JSON)
                .body("""
                        {"firstName": "Trust", "lastName": "Boundary", "email": "trust.%s@example.com", "dateOfBirth": "1980-01-02",
                         "state": "IL", "address": {"street1": "1 Main St", "city": "Springfield", "state": "IL", "zipCode": "62701"}}"""
                        .formatted(UUID.randomUUID()))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
        String members = platform.url(PlatformService.MEMBERS).toString();
        String internalRead = "/internal/members/" + memberId + "?partnerId=" + partnerId;

        // Directly, as any partner: refused, on internal, partner and operator routes alike.
        refused(given().baseUri(members).get(internalRead));
        refused(given().baseUri(members).header("X-Partner-Id", partnerId).get("/v1/members/" + memberId));
        refused(given().baseUri(platform.url(PlatformService.WEBHOOK).toString()).contentType(ContentType.JSON)
                .body("{\"url\":\"http://127.0.0.1:9/hook\"}").put("/ops/v1/partners/" + partnerId + "/webhook"));
        refused(given().baseUri(platform.url(PlatformService.WEBHOOK).toString())
                .post("/ops/v1/partners/" + partnerId + "/webhook/secret/rotate"));
        for (PlatformService service : PlatformService.values()) {
            if (service == PlatformService.GATEWAY) {
                continue;
            }
            String url = platform.url(service).toString();
            refused(given().baseUri(url).header("X-Partner-Id", partnerId).get("/no/such/path"));
            refused(given().baseUri(url).get("/q/health/ready"));
            given().baseUri(platform.managementUrl(service).toString()).get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        }

        // Through the gateway, and directly with a proof made with the deployment's key: served.
        given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/members/" + memberId)
                .then().statusCode(200).body("id", equalTo(memberId));
        given().baseUri(members).filter(new ServiceProofFilter(platform.secrets().trustKey())).get(internalRead)
                .then().statusCode(200).body("member.id", equalTo(memberId));
        refused(given().baseUri(members).filter(new ServiceProofFilter("a-key-that-is-not-the-deployments-key"))
                .get(internalRead));
    }
}

package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The limits on anonymous embed submissions (issue 20): per client address within a partner and
 * per partner, {@code 429 {"error":"Too Many Requests"}} with the IETF RateLimit header fields and
 * {@code Retry-After} past either, definitions (GET) never limited, and one partner's traffic never
 * spending another's. Small limits here (3 per address, 5 per partner, a minute); client addresses
 * come from {@code X-Forwarded-For}, as behind a deployment's proxy.
 */
@QuarkusTest
@TestProfile(SubmissionLimitsTest.SmallLimits.class)
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class SubmissionLimitsTest {

    private static final String ORIGIN = "https://shop.acme.example";
    private static final String POLICY = "\"address\";q=3;w=60, \"partner\";q=5;w=60";

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gateway.embed-limits.per-address", "3", "gateway.embed-limits.per-partner", "5",
                    "gateway.embed-limits.window", "60s",
                    "quarkus.http.proxy.proxy-address-forwarding", "true", "quarkus.http.proxy.allow-x-forwarded", "true");
        }
    }

    private static GatewayEdgeTest.Credentials partnerWithOrigin() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json").body(Map.of("origins", List.of(ORIGIN)))
                .put("/ops/v1/partners/" + partner.partnerId() + "/embed-origins").then().statusCode(200);
        return partner;
    }

    private static Response submit(GatewayEdgeTest.Credentials partner, String address) {
        return given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", ORIGIN)
                .header("X-Forwarded-For", address).contentType("application/json").body("{\"answers\": {}}")
                .post("/v2/embed/surveys/s1/responses");
    }

    private static void assertRefused(Response refused, String policy, int refillSeconds) {
        refused.then().statusCode(429).body(equalTo("{\"error\":\"Too Many Requests\"}"))
                .header("RateLimit-Policy", POLICY)
                .header("Access-Control-Allow-Origin", ORIGIN);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter >= refillSeconds - 5 && retryAfter <= refillSeconds, "Retry-After " + retryAfter);
        assertEquals("\"" + policy + "\";r=0;t=" + retryAfter, refused.header("RateLimit"));
    }

    @Test
    void aVisitorIsStoppedAtTheirAddressQuotaAndDefinitionsStayReadable() {
        GatewayEdgeTest.Credentials partner = partnerWithOrigin();
        String address = "10.1.0.1";
        // Reaches the service (the upstream echoes), with the limits described.
        submit(partner, address).then().statusCode(200).body("method", equalTo("POST"))
                .header("RateLimit-Policy", POLICY).header("RateLimit", "\"address\";r=2;t=20")
                .header("Access-Control-Expose-Headers", "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After");
        submit(partner, address).then().statusCode(200).header("RateLimit", "\"address\";r=1;t=40");
        submit(partner, address).then().statusCode(200).header("RateLimit", "\"address\";r=0;t=60");
        assertRefused(submit(partner, address), "address", 20);
        // Reading a definition is not a submission.
        given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", ORIGIN).header("X-Forwarded-For", address)
                .get("/v2/embed/surveys/s1").then().statusCode(200).header("RateLimit", nullValue());
        // Another address of the same partner still submits: 4th and 5th of the partner's 5.
        submit(partner, "10.1.0.2").then().statusCode(200).header("RateLimit", "\"partner\";r=1;t=48");
        submit(partner, "10.1.0.2").then().statusCode(200).header("RateLimit", "\"partner\";r=0;t=60");
    }

    @Test
    void aPartnersWholeTrafficStopsAtItsQuotaAndNeverSpendsAnothers() {
        GatewayEdgeTest.Credentials busy = partnerWithOrigin();
        GatewayEdgeTest.Credentials other = partnerWithOrigin();
        for (int visitor = 1; visitor <= 5; visitor++) {
            submit(busy, "10.2.0." + visitor).then().statusCode(200);
        }
        assertRefused(submit(busy, "10.2.0.6"), "partner", 12);
        // The other partner's form, from the same addresses, is not limited at all: buckets are the partner's own.
        submit(other, "10.2.0.6").then().statusCode(200).header("RateLimit", "\"address\";r=2;t=20");
        // Its second submission: 2 of 3 left at the address, 3 of 5 for the partner, which is the nearer its end.
        submit(other, "10.2.0.1").then().statusCode(200).header("RateLimit", "\"partner\";r=3;t=24");
    }
}

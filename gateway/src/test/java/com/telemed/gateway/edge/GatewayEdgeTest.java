package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
public class GatewayEdgeTest {

    public static final String OPS_KEY = "ops_test_key_for_the_gateway";
    private static final String UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

    @Inject
    ServiceTrust trust;

    record Credentials(String partnerId, String apiKey, String publishableKey) {
    }

    static Credentials newPartner() {
        ExtractableResponse<Response> created = given().header("x-ops-key", OPS_KEY).contentType("application/json")
                .body(Map.of("name", "Acme Health")).post("/ops/v1/partners")
                .then().statusCode(201).extract();
        return new Credentials(created.path("partner.id"), created.path("apiKey"), created.path("publishableKey"));
    }

    @Test
    void operatorCreatesAPartnerAndSeesItsKeysOnce() {
        ExtractableResponse<Response> created = given().header("x-ops-key", OPS_KEY).contentType("application/json")
                .body(Map.of("name", "Acme Health")).post("/ops/v1/partners")
                .then().statusCode(201)
                .body("partner.id", matchesPattern(UUID_V4))
                .body("partner.name", equalTo("Acme Health"))
                .body("partner.createdAt", matchesPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"))
                .body("apiKey", matchesPattern("apx_[0-9a-f]{32}"))
                .body("publishableKey", matchesPattern("pk_[0-9a-f]{32}"))
                .extract();
        assertEquals(Set.of("id", "name", "createdAt"), created.<Map<String, Object>>path("partner").keySet());
        assertEquals(Set.of("partner", "apiKey", "publishableKey"), created.<Map<String, Object>>path("").keySet());

        String id = created.path("partner.id");
        Map<String, Object> read = given().header("x-ops-key", OPS_KEY).get("/ops/v1/partners/" + id)
                .then().statusCode(200).extract().path("");
        assertEquals(Map.of("partner", Map.of("id", id, "name", "Acme Health",
                "createdAt", created.path("partner.createdAt"))), read);
    }

    @Test
    void unknownPartnerAndInvalidBodies() {
        given().header("x-ops-key", OPS_KEY).get("/ops/v1/partners/" + java.util.UUID.randomUUID())
                .then().statusCode(404).body("error", equalTo("Partner not found"));
        given().header("x-ops-key", OPS_KEY).get("/ops/v1/partners/not-a-uuid")
                .then().statusCode(404).body("error", equalTo("Partner not found"));
        given().header("x-ops-key", OPS_KEY).contentType("application/json").body("{}").post("/ops/v1/partners")
                .then().statusCode(400)
                .body("error[0].code", equalTo("invalid_type"))
                .body("error[0].path", equalTo(List.of("name")))
                .body("error[0].message", equalTo("Required"));
        given().header("x-ops-key", OPS_KEY).contentType("application/json").body("{\"name\":").post("/ops/v1/partners")
                .then().statusCode(400).body("error", equalTo("Invalid JSON"));
    }

    @Test
    void overlongUrisAndHeadersGetJsonErrorsNotTheCodecsEmptyAnswers() {
        String longQuery = "x".repeat(Edge.MAX_URI_LENGTH);
        given().urlEncodingEnabled(false).header("x-request-id", "long-uri").get("/v1/billing?period=" + longQuery)
                .then().statusCode(414).contentType("application/json")
                .header("X-Request-Id", equalTo("long-uri"))
                .body("error", equalTo("URI Too Long"));
        // Longer than the services' 4,096-byte line, shorter than the gateway's codec limit.
        given().urlEncodingEnabled(false).get("/v1/members?search=" + "%F0%9F%92%8A".repeat(1_000))
                .then().statusCode(414).contentType("application/json").body("error", equalTo("URI Too Long"));
        given().header("x-filler", "y".repeat(Edge.MAX_HEADER_BYTES)).get("/v1/members")
                .then().statusCode(431).contentType("application/json")
                .body("error", equalTo("Request Header Fields Too Large"));
        // Just under both bounds the call goes on to authentication.
        given().urlEncodingEnabled(false).get("/v1/members?search=" + "x".repeat(Edge.MAX_URI_LENGTH - 30))
                .then().statusCode(401).body("error", equalTo("API Key missing"));
    }

    @Test
    void operatorKeyRules() {
        Credentials partner = newPartner();
        given().get("/ops/v1/partners/" + partner.partnerId())
                .then().statusCode(401).body("error", equalTo("Ops Key missing"));
        given().header("x-ops-key", "wrong").get("/ops/v1/partners/" + partner.partnerId())
                .then().statusCode(401).body("error", equalTo("Invalid Ops Key"));
        given().header("x-ops-key", partner.apiKey()).get("/ops/v1/partners/" + partner.partnerId())
                .then().statusCode(401).body("error", equalTo("Invalid Ops Key"));
        given().header("x-api-key", partner.apiKey()).get("/ops/v1/partners/" + partner.partnerId())
                .then().statusCode(401).body("error", equalTo("Ops Key missing"));
        given().header("x-api-key", OPS_KEY).get("/v1/members")
                .then().statusCode(401).body("error", equalTo("Invalid API Key"));
        given().header("x-ops-key", OPS_KEY).get("/v1/members")
                .then().statusCode(401).body("error", equalTo("API Key missing"));
    }

    @Test
    void apiKeyRulesAndWhatTheServiceReceives() {
        Credentials partner = newPartner();
        given().get("/v1/members").then().statusCode(401).body("error", equalTo("API Key missing"));
        given().header("x-api-key", "apx_00000000000000000000000000000000").get("/v1/members")
                .then().statusCode(401).body("error", equalTo("Invalid API Key"));
        given().header("x-api-key", partner.publishableKey()).get("/v1/members")
                .then().statusCode(401).body("error", equalTo("Invalid API Key"));

        given().header("x-api-key", partner.apiKey())
                .header("X-Partner-Id", "someone-else")
                .header("X-Request-Id", "trace-42")
                .queryParam("search", "ada")
                .get("/v1/members")
                .then().statusCode(200)
                .header("X-Request-Id", "trace-42")
                .body("path", equalTo("/v1/members"))
                .body("query", equalTo("search=ada"))
                .body("headers.x-partner-id", equalTo(partner.partnerId()))
                .body("headers.x-request-id", equalTo("trace-42"))
                .body("headers.x-api-key", nullValue());
    }

    /**
     * W3C trace context: a partner's {@code traceparent} is continued, and the service gets the same
     * trace with the gateway's span as parent (not the partner's header as sent); without one the
     * gateway starts a trace of its own.
     */
    @Test
    void theTraceContextGoesOnToTheService() {
        Credentials partner = newPartner();
        String continued = given().header("x-api-key", partner.apiKey())
                .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .get("/v1/members").then().statusCode(200).extract().path("headers.traceparent");
        assertTrue(continued != null && continued.matches("00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01"), continued);
        assertNotEquals("00f067aa0ba902b7", continued.substring(36, 52));

        String started = given().header("x-api-key", partner.apiKey())
                .get("/v1/members").then().statusCode(200).extract().path("headers.traceparent");
        assertTrue(started != null && started.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"), started);
        assertNotEquals(continued.substring(3, 35), started.substring(3, 35));
    }

    /**
     * Services serve nothing without a proof: each forward carries one for what the service receives
     * (method, target with its query, the authenticated partner or none), never one a client sent.
     */
    @Test
    void everyForwardCarriesAServiceProofOfItselfAndNoClientSentOne() {
        Credentials partner = newPartner();
        String forgedTimestamp = String.valueOf(Instant.now().getEpochSecond());
        String forgedProof = "0".repeat(64);
        JsonPath partnerCall = given().noFilters().header("x-api-key", partner.apiKey())
                .header("X-Partner-Id", "someone-else")
                .header("X-Service-Timestamp", forgedTimestamp).header("X-Service-Proof", forgedProof)
                .queryParam("search", "ada").queryParam("page", "2")
                .get("/v1/members").then().statusCode(200).extract().jsonPath();
        assertEquals("/v1/members?search=ada&page=2", partnerCall.getString("uri"));
        assertEquals(partner.partnerId(), partnerCall.getString("headers.x-partner-id"));
        assertProven(partnerCall, "GET", partner.partnerId());
        assertNotEquals(forgedProof, partnerCall.getString("headers.x-service-proof"));

        JsonPath opsCall = given().noFilters().header("x-ops-key", OPS_KEY).contentType("application/json").body("{\"url\":null}")
                .header("X-Service-Timestamp", forgedTimestamp).header("X-Service-Proof", forgedProof)
                .put("/ops/v1/partners/" + partner.partnerId() + "/webhook").then().statusCode(200).extract().jsonPath();
        assertEquals("/ops/v1/partners/" + partner.partnerId() + "/webhook", opsCall.getString("uri"));
        assertNull(opsCall.getString("headers.x-partner-id"));
        assertProven(opsCall, "PUT", null);
        assertNotEquals(forgedProof, opsCall.getString("headers.x-service-proof"));
    }

    private void assertProven(JsonPath echoed, String method, String partnerId) {
        assertEquals(method, echoed.getString("method"));
        assertEquals(ServiceProof.Verdict.PROVEN, trust.verify(method, echoed.getString("uri"), partnerId,
                echoed.getString("headers.x-principal"), echoed.getString("headers.x-service-timestamp"), echoed.getString("headers.x-service-proof")));
    }

    /** Bearer tokens in paths (booking links) never reach the access log; the rest of the line does. */
    @Test
    void theAccessLogRedactsTokensInPaths() {
        String token = "q3V0b2tlbi1ib29raW5nLWxpbmstMjRi";
        List<String> lines = AccessLogLines.during(2, () -> {
            given().header("x-ops-key", OPS_KEY).header("X-Request-Id", "booking-1").contentType("application/json").body("{}")
                    .post("/ops/v1/bookings/" + token + "/appointment").then().statusCode(200)
                    .body("path", equalTo("/ops/v1/bookings/" + token + "/appointment"));
            given().header("X-Request-Id", "booking-2").get("/book/" + token).then().statusCode(200)
                    .body("path", equalTo("/book/" + token));
        });
        assertEquals(List.of("POST /ops/v1/bookings/[redacted]/appointment 200", "GET /book/[redacted] 200"),
                lines.stream().map(AccessLogLines::head).toList());
        assertTrue(lines.get(0).endsWith(" partner=- req=booking-1"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" partner=- req=booking-2"), lines.get(1));
        assertTrue(lines.stream().noneMatch(line -> line.contains(token)), lines.toString());
    }

    @Test
    void eachPrefixReachesItsServiceAndNothingElseIsRouted() {
        Credentials partner = newPartner();
        for (String path : List.of("/v1/drugs", "/v1/requests/abc", "/v1/surveys/v2/lookup", "/v1/messages/unread-count",
                "/v2/public/surveys/s1", "/v1/members/m1")) {
            given().header("x-api-key", partner.apiKey()).get(path).then().statusCode(200).body("path", equalTo(path));
        }
        given().header("x-api-key", partner.apiKey()).get("/internal/members/batch")
                .then().statusCode(404).body("error", equalTo("Not Found"));
        given().header("x-ops-key", OPS_KEY).get("/internal/members/batch")
                .then().statusCode(404).body("error", equalTo("Not Found"));
        given().header("x-api-key", partner.apiKey()).get("/v1/drugs/../../internal/x")
                .then().statusCode(404).body("error", equalTo("Not Found"));
        given().get("/nothing/here").then().statusCode(404).contentType("application/json")
                .body("error", equalTo("Not Found")).header("X-Request-Id", matchesPattern(UUID_V4));
        given().header("x-ops-key", OPS_KEY).get("/ops/v1/drugs")
                .then().statusCode(200).body("headers.x-partner-id", nullValue()).body("headers.x-ops-key", nullValue());
        given().header("x-ops-key", OPS_KEY).contentType("application/json").body("{\"url\":null}")
                .put("/ops/v1/partners/" + partner.partnerId() + "/webhook")
                .then().statusCode(200).body("path", equalTo("/ops/v1/partners/" + partner.partnerId() + "/webhook"));
        given().header("x-ops-key", OPS_KEY).post("/ops/v1/webhook-secrets/re-encrypt")
                .then().statusCode(200).body("path", equalTo("/ops/v1/webhook-secrets/re-encrypt"))
                .body("headers.x-ops-key", nullValue());
        given().header("x-api-key", partner.apiKey()).post("/ops/v1/webhook-secrets/re-encrypt")
                .then().statusCode(401).body("error", equalTo("Ops Key missing"));
    }

    @Test
    void rotationRefusesTheOldKeyOnTheNextCall() {
        Credentials partner = newPartner();
        given().header("x-api-key", partner.apiKey()).get("/v1/members").then().statusCode(200);
        String rotated = given().header("x-ops-key", OPS_KEY).post("/ops/v1/partners/" + partner.partnerId() + "/api-key/rotate")
                .then().statusCode(200).body("apiKey", matchesPattern("apx_[0-9a-f]{32}")).extract().path("apiKey");
        given().header("x-api-key", partner.apiKey()).get("/v1/members")
                .then().statusCode(401).body("error", equalTo("Invalid API Key"));
        given().header("x-api-key", rotated).get("/v1/members")
                .then().statusCode(200).body("headers.x-partner-id", equalTo(partner.partnerId()));
    }

    @Test
    void jsonBodiesAreLimitedTo100KbAndAttachmentsStreamThrough() {
        Credentials partner = newPartner();
        byte[] limit = new byte[102_400];
        Arrays.fill(limit, (byte) 'a');
        given().header("x-api-key", partner.apiKey()).contentType("application/json").body(limit).post("/v1/requests")
                .then().statusCode(200).body("bodyLength", equalTo(102_400));
        byte[] over = new byte[102_401];
        Arrays.fill(over, (byte) 'a');
        given().header("x-api-key", partner.apiKey()).contentType("application/json").body(over).post("/v1/requests")
                .then().statusCode(413).body("error", equalTo("Payload Too Large"));
        // Without a Content-Length the edge counts as the body streams.
        given().header("x-api-key", partner.apiKey()).contentType("application/json")
                .body(new ByteArrayInputStream(over)).post("/v1/requests")
                .then().statusCode(413).body("error", equalTo("Payload Too Large"));

        byte[] file = new byte[10 * 1024 * 1024];
        Arrays.fill(file, (byte) 7);
        int received = given().header("x-api-key", partner.apiKey())
                .multiPart("file", "scan.pdf", file, "application/pdf")
                .post("/v1/messages/conversations/c1/attachments")
                .then().statusCode(200).extract().path("bodyLength");
        assertFalse(received < file.length, "the whole attachment reached the service");
    }

    @Test
    void unreachableAndSlowServicesAnswerJson() {
        Credentials partner = newPartner();
        given().header("x-api-key", partner.apiKey()).get("/v1/billing")
                .then().statusCode(503).contentType("application/json").body("error", equalTo("Service Unavailable"));
        given().header("x-api-key", partner.apiKey()).get("/v1/members/slow")
                .then().statusCode(504).contentType("application/json").body("error", equalTo("Gateway Timeout"));
    }

    @Test
    void partnerApiCors() {
        given().header("Origin", "https://anywhere.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type, x-api-key")
                .options("/v1/requests")
                .then().statusCode(204)
                .header("Access-Control-Allow-Origin", "*")
                .header("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS")
                .header("Access-Control-Allow-Headers", "content-type, x-api-key");
        Credentials partner = newPartner();
        given().header("x-api-key", partner.apiKey()).header("Origin", "https://anywhere.example").get("/v1/drugs")
                .then().statusCode(200).header("Access-Control-Allow-Origin", "*");
        given().header("Origin", "https://anywhere.example").get("/v1/drugs")
                .then().statusCode(401).header("Access-Control-Allow-Origin", "*");
    }

    @Test
    void embedNeedsThePublishableKeyAndAnAllowedOrigin() {
        Credentials partner = newPartner();
        given().header("x-ops-key", OPS_KEY).contentType("application/json")
                .body(Map.of("origins", List.of("https://shop.acme.example", "https://shop.acme.example")))
                .put("/ops/v1/partners/" + partner.partnerId() + "/embed-origins")
                .then().statusCode(200).body("origins", equalTo(List.of("https://shop.acme.example")));
        given().header("x-ops-key", OPS_KEY).contentType("application/json")
                .body(Map.of("origins", List.of("shop.acme.example/path")))
                .put("/ops/v1/partners/" + partner.partnerId() + "/embed-origins")
                .then().statusCode(400).body("error[0].path", equalTo(List.of("origins", 0)))
                .body("error[0].message", equalTo("Invalid origin"));
        // The gateway's own endpoints keep the 100 KB JSON limit, as the proxied ones do.
        String padded = "{\"origins\": [\"https://other.acme.example\"]}" + " ".repeat(102_400);
        given().header("x-ops-key", OPS_KEY).contentType("application/json").body(padded)
                .put("/ops/v1/partners/" + partner.partnerId() + "/embed-origins")
                .then().statusCode(413).body("error", equalTo("Payload Too Large"));
        // (Nothing changed: the preflight below still finds shop.acme.example allowed.)

        given().header("Origin", "https://shop.acme.example").header("Access-Control-Request-Method", "POST")
                .options("/v2/embed/surveys/s1/responses")
                .then().statusCode(204)
                .header("Access-Control-Allow-Origin", "https://shop.acme.example")
                .header("Access-Control-Allow-Headers", "Content-Type, x-service-publishable-key, X-Request-Id");
        given().header("Origin", "https://evil.example").header("Access-Control-Request-Method", "POST")
                .options("/v2/embed/surveys/s1/responses")
                .then().statusCode(403).body("error", equalTo("Origin not allowed"))
                .header("Access-Control-Allow-Origin", nullValue());

        given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", "https://shop.acme.example")
                .get("/v2/embed/surveys/s1")
                .then().statusCode(200)
                .header("Access-Control-Allow-Origin", "https://shop.acme.example")
                .body("headers.x-partner-id", equalTo(partner.partnerId()))
                .body("headers.x-service-publishable-key", nullValue());
        given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", "https://evil.example")
                .get("/v2/embed/surveys/s1").then().statusCode(403).body("error", equalTo("Origin not allowed"));
        given().header("x-service-publishable-key", "pk_00000000000000000000000000000000").header("Origin", "https://shop.acme.example")
                .get("/v2/embed/surveys/s1").then().statusCode(401).body("error", equalTo("Invalid publishable key"));
        given().header("Origin", "https://shop.acme.example")
                .get("/v2/embed/surveys/s1").then().statusCode(401).body("error", equalTo("Invalid publishable key"));
        given().header("x-api-key", partner.apiKey()).header("Origin", "https://shop.acme.example")
                .get("/v2/embed/surveys/s1").then().statusCode(401).body("error", equalTo("Invalid publishable key"));
        // A sandbox deployment lets the partner's developers embed from their own machine.
        given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", "http://localhost:5173")
                .get("/v2/embed/surveys/s1").then().statusCode(200).header("Access-Control-Allow-Origin", "http://localhost:5173");
        given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", "http://localhost.evil.example")
                .get("/v2/embed/surveys/s1").then().statusCode(403);
    }

    @Test
    void everyAnswerCarriesARequestId() {
        given().header("X-Request-Id", "abc").get("/v1/members").then().statusCode(401).header("X-Request-Id", "abc");
        given().header("X-Request-Id", "bad id with spaces").get("/v1/members")
                .then().header("X-Request-Id", matchesPattern(UUID_V4));
        given().header("x-ops-key", OPS_KEY).get("/ops/v1/partners/" + java.util.UUID.randomUUID())
                .then().statusCode(404).header("X-Request-Id", notNullValue());
    }
}

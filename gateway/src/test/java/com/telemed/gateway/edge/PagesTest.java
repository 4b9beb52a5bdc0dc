package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.RawSockets;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.Method;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The platform's pages (people-and-pages.md, "Patient pages"; issue #39): {@code /book}, {@code /surveys},
 * {@code /assets} and {@code /console} go to web-service on the public address with no credential, with
 * their path and query as sent; a hosted survey page's {@code key} (a publishable key) names its partner
 * as on the embed surface, and nothing else does; the gateway's internal endpoint answers a partner's
 * embed origins to a call with a service proof only. The fake service ({@link UpstreamServer}) stands in
 * for web-service and echoes what it received.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class PagesTest {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String METHOD_NOT_ALLOWED = "{\"error\":\"Method Not Allowed\"}";
    private static final String UNAUTHORIZED = "{\"error\":\"Unauthorized\"}";

    @Inject
    ServiceTrust trust;

    /** A token as requests-service makes booking and survey tokens: 32 base64url characters, new for each test. */
    private static String token() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The target is sent exactly as written (already percent-encoded), and without the tests' service proof. */
    private static RequestSpecification browser() {
        return given().noFilters().urlEncodingEnabled(false);
    }

    private void assertProven(JsonPath echoed, String partnerId) {
        assertEquals(ServiceProof.Verdict.PROVEN, trust.verify(echoed.getString("method"), echoed.getString("uri"), partnerId,
                echoed.getString("headers.x-principal"), echoed.getString("headers.x-service-timestamp"), echoed.getString("headers.x-service-proof")));
    }

    @Test
    void eachPagePrefixReachesTheWebServiceWithItsPathAndQueryAndNoKey() {
        String token = token();
        for (String target : List.of("/book/" + token + "?tz=Europe%2FParis", "/book/" + token,
                "/surveys/intake-1?return=https%3A%2F%2Fshop.acme.example%2Fdone", "/surveys/t/" + token + "?return=x",
                "/assets/web/style.css", "/assets/web/app.js", "/console", "/console/queue?drug=finasteride")) {
            JsonPath echoed = browser().header("X-Request-Id", "page-1").get(target)
                    .then().statusCode(200).header("X-Request-Id", "page-1").extract().jsonPath();
            assertEquals("GET", echoed.getString("method"));
            assertEquals(target, echoed.getString("uri"), target);
            assertNull(echoed.getString("headers.x-partner-id"), target);
            assertEquals("page-1", echoed.getString("headers.x-request-id"));
            assertProven(echoed, null);
        }
        // A form's post: its body and its content type go on as sent.
        String form = "startTime=2026-12-01T14%3A00%3A00Z&tz=America%2FNew_York";
        JsonPath booked = browser().contentType("application/x-www-form-urlencoded").body(form).post("/book/" + token)
                .then().statusCode(200).extract().jsonPath();
        assertEquals("POST", booked.getString("method"));
        assertEquals("/book/" + token, booked.getString("uri"));
        assertEquals(form.length(), booked.getInt("bodyLength"));
        assertTrue(booked.getString("headers.content-type").startsWith("application/x-www-form-urlencoded"),
                booked.getString("headers.content-type"));
        assertProven(booked, null);
        for (String target : List.of("/book/" + token + "/reschedule", "/book/" + token + "/cancel", "/surveys/t/" + token)) {
            browser().contentType("application/x-www-form-urlencoded").body("tz=UTC").post(target)
                    .then().statusCode(200).body("method", equalTo("POST")).body("uri", equalTo(target));
        }
        // HEAD, as a link checker sends it.
        browser().head("/assets/web/style.css").then().statusCode(200);
    }

    @Test
    void onlyThePagePrefixesAreRoutedToTheWebService() {
        for (String path : List.of("/booking/x", "/surveysx/s1", "/assetsx", "/consoles", "/Book/x", "/v2/book/x", "/survey/s1")) {
            browser().get(path).then().statusCode(404).contentType("application/json").body(equalTo("{\"error\":\"Not Found\"}"));
            assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(path), path);
        }
        // The partner API's surveys keep their surface and key.
        browser().get("/v1/surveys/v2/lookup?drugId=x").then().statusCode(401).body("error", equalTo("API Key missing"));
    }

    @Test
    void noClientCredentialPartnerOrProofGoesOn() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String forgedProof = "0".repeat(64);
        String target = "/book/" + token();
        JsonPath echoed = browser().header("x-api-key", partner.apiKey())
                .header("x-service-publishable-key", partner.publishableKey())
                .header("x-ops-key", GatewayEdgeTest.OPS_KEY)
                .header("X-Partner-Id", partner.partnerId())
                .header("X-Service-Timestamp", String.valueOf(Instant.now().getEpochSecond()))
                .header("X-Service-Proof", forgedProof)
                .get(target).then().statusCode(200).extract().jsonPath();
        for (String header : List.of("x-partner-id", "x-api-key", "x-service-publishable-key", "x-ops-key")) {
            assertNull(echoed.getString("headers." + header), header);
        }
        assertNotEquals(forgedProof, echoed.getString("headers.x-service-proof"));
        assertProven(echoed, null);
    }

    /**
     * Where the browser called (issue #41: the console's OpenID Connect {@code redirect_uri} is built from it):
     * the host and port as the browser named them and the scheme this edge saw, never a client's own forwarded
     * headers (the tests' client is no trusted proxy of this gateway).
     */
    @Test
    void theServiceLearnsThePublicHostAndSchemeFromTheEdgeNeverFromTheClient() {
        JsonPath echoed = browser().header("Host", "console.clinic.example:8443").get("/console/sign-in/oidc")
                .then().statusCode(200).extract().jsonPath();
        assertEquals("console.clinic.example:8443", echoed.getString("headers.x-forwarded-host"));
        assertEquals("http", echoed.getString("headers.x-forwarded-proto"));

        echoed = browser().header("Host", "console.clinic.example")
                .header("X-Forwarded-Host", "evil.example").header("X-Forwarded-Proto", "https")
                .header("X-Forwarded-Port", "1").header("X-Forwarded-Prefix", "/evil").header("Forwarded", "host=evil.example;proto=https")
                .get("/console/sign-in/oidc").then().statusCode(200).extract().jsonPath();
        assertEquals("console.clinic.example", echoed.getString("headers.x-forwarded-host"));
        assertEquals("http", echoed.getString("headers.x-forwarded-proto"));
        for (String header : List.of("x-forwarded-port", "x-forwarded-prefix", "forwarded")) {
            assertNull(echoed.getString("headers." + header), header);
        }
    }

    @Test
    void aValidPublishableKeyOnAHostedSurveyPageNamesItsPartnerAsTheEmbedDoes() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        GatewayEdgeTest.Credentials other = GatewayEdgeTest.newPartner();
        String target = "/surveys/intake-1?key=" + partner.publishableKey() + "&return=https%3A%2F%2Fshop.acme.example%2Fdone";
        JsonPath echoed = browser().header("X-Partner-Id", other.partnerId()).get(target)
                .then().statusCode(200).extract().jsonPath();
        assertEquals(target, echoed.getString("uri"));
        assertEquals(partner.partnerId(), echoed.getString("headers.x-partner-id"));
        assertProven(echoed, partner.partnerId());
        // Another partner's key names that partner.
        JsonPath others = browser().get("/surveys/intake-1?key=" + other.publishableKey())
                .then().statusCode(200).extract().jsonPath();
        assertEquals(other.partnerId(), others.getString("headers.x-partner-id"));
        assertProven(others, other.partnerId());
        // The submission of the page's form too, with the embed's limits described.
        browser().contentType("application/x-www-form-urlencoded").body("q1=yes")
                .post("/surveys/intake-1?key=" + partner.publishableKey())
                .then().statusCode(200).body("method", equalTo("POST"))
                .body("headers.x-partner-id", equalTo(partner.partnerId()))
                .header("RateLimit-Policy", "\"address\";q=20;w=60, \"partner\";q=600;w=60")
                .header("RateLimit", "\"address\";r=19;t=3");
        // No Origin is asked for and no CORS header is given: the page is the platform's own origin.
        browser().header("Origin", "https://evil.example").get("/surveys/intake-1?key=" + partner.publishableKey())
                .then().statusCode(200).header("Access-Control-Allow-Origin", nullValue())
                .body("headers.x-partner-id", equalTo(partner.partnerId()));
    }

    @Test
    void aMissingOrInvalidKeyGoesOnWithoutAPartnerAndThePageAnswers() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        for (String target : List.of("/surveys/intake-1", "/surveys/intake-1?key=", "/surveys/intake-1?key=pk_00000000000000000000000000000000",
                "/surveys/intake-1?key=" + partner.apiKey(), "/surveys/intake-1?key=nonsense&return=x",
                // A key elsewhere than on a new patient's survey page names no one.
                "/surveys/t/" + token() + "?key=" + partner.publishableKey(), "/book/" + token() + "?key=" + partner.publishableKey(),
                "/surveys/intake-1/more?key=" + partner.publishableKey(), "/assets/web/app.js?key=" + partner.publishableKey())) {
            JsonPath echoed = browser().get(target).then().statusCode(200).extract().jsonPath();
            assertEquals(target, echoed.getString("uri"));
            assertNull(echoed.getString("headers.x-partner-id"), target);
            assertProven(echoed, null);
        }
        // Not limited as submissions either: without a partner there is no quota to spend.
        browser().contentType("application/x-www-form-urlencoded").body("q1=yes").post("/surveys/intake-1?key=pk_nope")
                .then().statusCode(200).header("RateLimit", nullValue()).body("headers.x-partner-id", nullValue());
    }

    @Test
    void pagesTakeLinksAndFormsOnly() {
        String target = "/book/" + token();
        for (Method method : List.of(Method.PUT, Method.PATCH, Method.DELETE, Method.OPTIONS)) {
            browser().contentType("application/x-www-form-urlencoded").body("tz=UTC").request(method, target)
                    .then().statusCode(405).contentType("application/json").header("Allow", "GET, HEAD, POST")
                    .body(equalTo(METHOD_NOT_ALLOWED));
        }
        browser().header("Origin", "https://anywhere.example").header("Access-Control-Request-Method", "POST")
                .options("/surveys/intake-1").then().statusCode(405).body(equalTo(METHOD_NOT_ALLOWED));
        assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(target));
    }

    /** The edge's answers to bad input hold on the pages as on every route, before web-service is called. */
    @Test
    void badInputIsAnsweredAtTheEdgeAsEverywhere() throws Exception {
        String token = token();
        // Raw bytes outside ASCII in the target: not a URI.
        try (Socket socket = RawSockets.connect(RestAssured.port, 0)) {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("GET /book/" + token).getBytes(StandardCharsets.US_ASCII));
            request.writeBytes("\u00e9".getBytes(StandardCharsets.UTF_8));
            request.writeBytes(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(request.toByteArray());
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
            assertTrue(answer.endsWith("\r\n\r\n{\"error\":\"Bad Request\"}"), answer);
        }
        // Escapes that are not UTF-8: the Invalid character issue, naming the parameter.
        browser().get("/surveys/s1?key=%FF&return=%ED%A0%80").then().statusCode(400).contentType("application/json")
                .body(equalTo("{\"error\":[{\"code\":\"custom\",\"path\":[\"key\"],\"message\":\"Invalid character\"},"
                        + "{\"code\":\"custom\",\"path\":[\"return\"],\"message\":\"Invalid character\"}]}"));
        browser().get("/book/" + token + "?tz=" + "x".repeat(Edge.MAX_URI_LENGTH)).then().statusCode(414)
                .body(equalTo("{\"error\":\"URI Too Long\"}"));
        browser().contentType("application/x-www-form-urlencoded").body("tz=" + "x".repeat(102_398)).post("/book/" + token)
                .then().statusCode(413).body(equalTo("{\"error\":\"Payload Too Large\"}"));
        for (String path : List.of("/book/" + token, "/book/" + token + "\u00c3\u00a9", "/book/" + token + "\u00e9", "/surveys/s1")) {
            assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(path), path);
        }
    }

    /** Booking tokens and returning members' survey tokens are bearer secrets: the access log writes neither. */
    @Test
    void theAccessLogWritesNoTokenOfAPage() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String booking = token();
        String survey = token();
        List<String> lines = AccessLogLines.during(5, () -> {
            browser().header("X-Request-Id", "page-log-1").get("/book/" + booking + "?tz=UTC").then().statusCode(200);
            browser().contentType("application/x-www-form-urlencoded").body("tz=UTC").post("/book/" + booking + "/cancel")
                    .then().statusCode(200);
            browser().get("/surveys/t/" + survey + "?return=x").then().statusCode(200);
            browser().get("/surveys/intake-1?key=" + partner.publishableKey()).then().statusCode(200);
            browser().put("/surveys/t/" + survey).then().statusCode(405);
        });
        assertEquals(List.of("GET /book/[redacted] 200", "POST /book/[redacted]/cancel 200", "GET /surveys/t/[redacted] 200",
                "GET /surveys/intake-1 200", "PUT /surveys/t/[redacted] 405"), lines.stream().map(AccessLogLines::head).toList());
        assertTrue(lines.get(0).endsWith(" partner=- req=page-log-1"), lines.get(0));
        assertTrue(lines.get(3).contains(" partner=" + partner.partnerId() + " "), lines.get(3));
        assertTrue(lines.stream().noneMatch(line -> line.contains(booking) || line.contains(survey)
                || line.contains(partner.publishableKey())), lines.toString());
    }

    @Test
    void theInternalEndpointAnswersAPartnersEmbedOriginsToAProvenCallOnly() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json")
                .body(Map.of("origins", List.of("https://shop.acme.example", "http://localhost:5173")))
                .put("/ops/v1/partners/" + partner.partnerId() + "/embed-origins").then().statusCode(200);
        String path = "/internal/partners/" + partner.partnerId() + "/embed-origins";
        String key = SignedQuarkusTests.applicationKey();

        // Signed as web-service's REST client signs it (the tests' filter), with or without a partner header.
        given().get(path).then().statusCode(200).contentType("application/json")
                .body(equalTo("{\"origins\":[\"https://shop.acme.example\",\"http://localhost:5173\"]}"));
        given().header("X-Partner-Id", partner.partnerId()).get(path).then().statusCode(200)
                .body("origins", equalTo(List.of("https://shop.acme.example", "http://localhost:5173")));
        GatewayEdgeTest.Credentials bare = GatewayEdgeTest.newPartner();
        given().get("/internal/partners/" + bare.partnerId() + "/embed-origins").then().statusCode(200)
                .body(equalTo("{\"origins\":[]}"));
        given().get("/internal/partners/" + UUID.randomUUID() + "/embed-origins").then().statusCode(404)
                .body(equalTo("{\"error\":\"Partner not found\"}"));
        given().get("/internal/partners/not-a-uuid/embed-origins").then().statusCode(404)
                .body(equalTo("{\"error\":\"Partner not found\"}"));

        // Without a proof, or with one that is not for this call: 401, whatever else the call carries.
        given().noFilters().get(path).then().statusCode(401).contentType("application/json").body(equalTo(UNAUTHORIZED));
        given().noFilters().header("x-ops-key", GatewayEdgeTest.OPS_KEY).header("x-api-key", partner.apiKey()).get(path)
                .then().statusCode(401).body(equalTo(UNAUTHORIZED));
        long now = Instant.now().getEpochSecond();
        Map<String, String> stale = TestServiceProofs.headers(key, "GET", path, null, now - 3_600);
        given().noFilters().headers(stale).get(path).then().statusCode(401).body(equalTo(UNAUTHORIZED));
        Map<String, String> otherPartner = TestServiceProofs.headers(key, "GET",
                "/internal/partners/" + bare.partnerId() + "/embed-origins", null, now);
        given().noFilters().headers(otherPartner).get(path).then().statusCode(401).body(equalTo(UNAUTHORIZED));
        Map<String, String> withoutItsPartner = TestServiceProofs.headers(key, "GET", path, null, now);
        given().noFilters().headers(withoutItsPartner).header("X-Partner-Id", partner.partnerId()).get(path)
                .then().statusCode(401).body(equalTo(UNAUTHORIZED));
        Map<String, String> anotherKey = TestServiceProofs.headers("another-deployment-key-0123456789abcdef", "GET", path, null, now);
        given().noFilters().headers(anotherKey).get(path).then().statusCode(401).body(equalTo(UNAUTHORIZED));
        given().noFilters().headers(withoutItsPartner).get(path).then().statusCode(200);

        // Proven or not, no other internal path is served, and nothing else under this one.
        for (String other : List.of("/internal/partners/" + partner.partnerId(), "/internal/partners/" + partner.partnerId() + "/keys",
                "/internal/members/batch")) {
            given().get(other).then().statusCode(404).body(equalTo("{\"error\":\"Not Found\"}"));
        }
    }
}

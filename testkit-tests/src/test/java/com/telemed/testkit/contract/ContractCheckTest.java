package com.telemed.testkit.contract;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import com.telemed.testkit.http.JsonCalls;
import com.telemed.testkit.http.RawHttp;
import com.telemed.testkit.http.RestAssuredExchanges;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wiring of the contract check, against an in-test "gateway" (the JDK's HTTP server) serving a
 * sample 3.1 partner document at {@code /openapi.json}, an operator one at {@code /ops/openapi.json}
 * (with the operator key only), and answers that conform or drift: REST Assured (global filter),
 * {@link JsonCalls} and {@link RawHttp} calls to it are held to the documents; calls elsewhere are not.
 */
class ContractCheckTest {

    private static final String OPS_KEY = "ops_0123456789abcdef0123456789abcdef";
    private static final String MEMBER = """
            {"id": "3f2c8e0a-0000-4000-8000-000000000000", "firstName": "Ada", "email": "ada@example.com", "phone": null}""";
    private static final String DRIFTED = MEMBER.replace("\"Ada\"", "42");
    private static final String OPERATOR = """
            {"openapi": "3.1.0", "info": {"title": "Sample operator API", "version": "1"},
             "paths": {"/ops/v1/partners/{id}": {"get": {"responses": {"200": {"description": "The partner",
               "content": {"application/json": {"schema": {"type": "object", "required": ["partner"],
                 "properties": {"partner": {"type": "object", "required": ["id", "name"]}}}}}}}}}}}""";
    private static final String DRIFT_OF_MEMBER = "Contract drift: GET /v1/members/drift answered 200, against the partner document"
            + " /openapi.json:\n  - GET /v1/members/{id} 200: body /firstName: integer found, string expected";

    private HttpServer gateway;
    private HttpServer service;
    private URI gatewayUrl;
    private URI serviceUrl;

    @BeforeAll
    static void restAssured() {
        RestAssuredExchanges.install();
    }

    @BeforeEach
    void start() throws IOException {
        gateway = server(true);
        service = server(false);
        gatewayUrl = URI.create("http://127.0.0.1:" + gateway.getAddress().getPort());
        serviceUrl = URI.create("http://127.0.0.1:" + service.getAddress().getPort());
        ContractCheck.instance().register(gatewayUrl, OPS_KEY);
    }

    @AfterEach
    void stop() {
        ContractCheck.instance().unregister(gatewayUrl);
        gateway.stop(0);
        service.stop(0);
        System.clearProperty(ContractCheck.SWITCH);
    }

    @Test
    void restAssuredCallsToTheGatewayAreHeldToTheDocument() {
        // A conforming answer passes, and the test still reads its body.
        given().baseUri(gatewayUrl.toString()).get("/v1/members/good").then().statusCode(200).body("firstName", equalTo("Ada"));
        given().baseUri(gatewayUrl.toString()).get("/attachments/t/scan.png").then().statusCode(200);
        AssertionError drift = assertThrows(AssertionError.class,
                () -> given().baseUri(gatewayUrl.toString()).get("/v1/members/drift"));
        assertEquals(DRIFT_OF_MEMBER, drift.getMessage());
    }

    @Test
    void jsonCallsToTheGatewayAreHeldToTheDocument() throws Exception {
        JsonCalls calls = new JsonCalls(Duration.ofSeconds(10));
        assertEquals("Ada", calls.call(gatewayUrl, "GET", "/v1/members/good", Map.of(), null).json().path("firstName").asText());
        AssertionError drift = assertThrows(AssertionError.class, () -> calls.call(gatewayUrl, "GET", "/v1/members/drift", Map.of(), null));
        assertEquals(DRIFT_OF_MEMBER, drift.getMessage());
        AssertionError status = assertThrows(AssertionError.class,
                () -> calls.call(gatewayUrl, "POST", "/v1/members/good", Map.of(), Map.of("firstName", "Ada")));
        assertEquals("Contract drift: POST /v1/members/good answered 200, against the partner document /openapi.json:\n"
                + "  - POST /v1/members/{id}: method not documented (documented: GET, DELETE)", status.getMessage());
    }

    @Test
    void operatorPathsAreHeldToTheOperatorDocument() {
        given().baseUri(gatewayUrl.toString()).header("x-ops-key", OPS_KEY).get("/ops/v1/partners/good").then().statusCode(200);
        AssertionError drift = assertThrows(AssertionError.class,
                () -> given().baseUri(gatewayUrl.toString()).header("x-ops-key", OPS_KEY).get("/ops/v1/partners/drift"));
        assertEquals("Contract drift: GET /ops/v1/partners/drift answered 200, against the operator document /ops/openapi.json:\n"
                + "  - GET /ops/v1/partners/{id} 200: body /partner: required property 'name' not found", drift.getMessage());
    }

    @Test
    void rawHttpAnswersAreTheBadInputOraclesToJudge() throws Exception {
        // RawHttp sends malformed requests on purpose; the HTTP layer may resolve them to another
        // resource (a matrix parameter, an odd segment), so none of its answers is held to the document.
        try (RawHttp http = new RawHttp(gatewayUrl, Duration.ofSeconds(10))) {
            assertEquals(200, http.send(get("/v1/members/good")).status());
            assertEquals(400, http.send(get("/v1/members/%zz")).status());
            assertEquals(200, http.send(get("/v1/members/drift")).status());
        }
    }

    @Test
    void callsElsewhereAndTheDocumentsThemselvesAreNotChecked() throws Exception {
        given().baseUri(serviceUrl.toString()).get("/v1/members/drift").then().statusCode(200);
        new JsonCalls(Duration.ofSeconds(10)).call(serviceUrl, "GET", "/v1/members/drift", Map.of(), null);
        given().baseUri(gatewayUrl.toString()).get("/openapi.json").then().statusCode(200);
        given().baseUri(gatewayUrl.toString()).get("/q/health").then().statusCode(200);
        given().baseUri(gatewayUrl.toString()).get("/book/t").then().statusCode(200);
        // CORS preflights and HEAD: the HTTP layer's.
        given().baseUri(gatewayUrl.toString()).options("/v1/members/drift").then().statusCode(200);
    }

    @Test
    void theCheckCanBeSwitchedOff() {
        System.setProperty(ContractCheck.SWITCH, "off");
        given().baseUri(gatewayUrl.toString()).get("/v1/members/drift").then().statusCode(200);
    }

    @Test
    void aGatewayWithoutDocumentFailsOnceWithTheReason() throws IOException {
        HttpServer bare = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        bare.createContext("/", exchange -> answer(exchange, 404, "application/json", "{\"error\": \"Not found\"}"));
        bare.start();
        URI bareUrl = URI.create("http://127.0.0.1:" + bare.getAddress().getPort());
        try {
            ContractCheck.instance().register(bareUrl, OPS_KEY);
            AssertionError missing = assertThrows(AssertionError.class,
                    () -> given().baseUri(bareUrl.toString()).get("/v1/members/good"));
            assertEquals("Contract check: the gateway at " + bareUrl
                    + " serves no OpenAPI document at /openapi.json (404). Every answer of the end-to-end tests is held to its"
                    + " OpenAPI documents; run with -Dcontract.check=off to switch the check off.", missing.getMessage());
            given().baseUri(bareUrl.toString()).get("/v1/members/good").then().statusCode(404);
        } finally {
            ContractCheck.instance().unregister(bareUrl);
            bare.stop(0);
        }
    }

    @Test
    void webhookBodiesAreHeldToTheRegisteredPartnerDocument() {
        assertEquals(List.of(), ContractCheck.instance().webhookViolations(
                "{\"event\": \"item.approved\", \"requestId\": \"r1\", \"timestamp\": \"2026-11-27T03:00:00Z\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of("webhook item.exploded: event not documented under webhooks"),
                ContractCheck.instance().webhookViolations("{\"event\": \"item.exploded\"}".getBytes(StandardCharsets.UTF_8)));
    }

    private static RawHttp.Request get(String target) {
        return new RawHttp.Request("GET", target, List.of(), null, false);
    }

    /** The gateway (with documents) or a service (answers only, no documents). */
    private static HttpServer server(boolean withDocuments) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            String opsKey = exchange.getRequestHeaders().getFirst("x-ops-key");
            switch (path) {
                case "/openapi.json" -> answer(exchange, withDocuments ? 200 : 404, "application/json",
                        withDocuments ? OpenApiContractTest.SAMPLE : "{\"error\": \"Not found\"}");
                case "/ops/openapi.json" -> answer(exchange, withDocuments && OPS_KEY.equals(opsKey) ? 200 : 401, "application/json",
                        withDocuments && OPS_KEY.equals(opsKey) ? OPERATOR : "{\"error\": \"Invalid ops key\"}");
                case "/v1/members/good" -> answer(exchange, 200, "application/json", MEMBER);
                case "/v1/members/drift" -> answer(exchange, 200, "application/json", DRIFTED);
                case "/attachments/t/scan.png" -> answer(exchange, 200, "image/png", "\u0089PNG\r\n");
                case "/ops/v1/partners/good" -> answer(exchange, 200, "application/json", "{\"partner\": {\"id\": \"p\", \"name\": \"P\"}}");
                case "/ops/v1/partners/drift" -> answer(exchange, 200, "application/json", "{\"partner\": {\"id\": \"p\"}}");
                case "/q/health" -> answer(exchange, 200, "text/plain", "UP");
                case "/book/t" -> answer(exchange, 200, "text/html", "<p>not a route of the gateway</p>");
                default -> answer(exchange, path.contains("%") ? 400 : 404, "text/plain", "no");
            }
        });
        server.start();
        return server;
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String type, String body) throws IOException {
        exchange.getRequestBody().readAllBytes();
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}

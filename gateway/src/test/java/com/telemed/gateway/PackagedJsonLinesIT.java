package com.telemed.gateway;

import static com.telemed.testkit.production.PackagedStart.assertJsonLines;
import static com.telemed.testkit.production.PackagedStart.assertStartsReady;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.Infrastructure;
import io.restassured.path.json.JsonPath;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The packaged gateway ({@code java -jar target/quarkus-app/quarkus-run.jar}, Quarkus's prod profile,
 * as a deployment runs it) logs a partner call as JSON lines: the call's access line carries the
 * service, and in {@code mdc} the call's request id, the partner's id and the trace id of the
 * {@code traceparent} the partner sent; the service behind it (a stand-in here) gets that trace.
 */
class PackagedJsonLinesIT {

    private static final String OPS_KEY = "ops-key-of-this-deployment-only";

    @Test
    void aPartnerCallsJsonLineCarriesItsRequestIdPartnerIdAndTraceId() throws Exception {
        List<Map<String, String>> received = new CopyOnWriteArrayList<>();
        HttpServer requestsService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        requestsService.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes();
            }
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            received.add(headers);
            byte[] answer = "{\"data\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        requestsService.start();
        // The test JVM's servers (Infrastructure.shared()): they stop when it exits.
        Infrastructure infrastructure = Infrastructure.shared();
        try {
            infrastructure.postgres().ensureDatabase("gateway");
            int port = FreePorts.next();
            Map<String, String> environment = new HashMap<>();
            environment.put("QUARKUS_HTTP_HOST", "127.0.0.1");
            environment.put("QUARKUS_HTTP_PORT", String.valueOf(port));
            environment.put("QUARKUS_DATASOURCE_JDBC_URL", infrastructure.postgres().jdbcUrl("gateway"));
            environment.put("QUARKUS_DATASOURCE_USERNAME", infrastructure.postgres().username());
            environment.put("QUARKUS_DATASOURCE_PASSWORD", "from-the-deployments-vault");
            environment.put("PLATFORM_TRUST_KEY", "a-deployment-trust-key-from-its-own-secret-store");
            environment.put("SERVICE_ENVIRONMENT", "sandbox");
            environment.put("OPS_API_KEY", OPS_KEY);
            environment.put("SERVICE_URLS_REQUESTS", "http://127.0.0.1:" + requestsService.getAddress().getPort());

            String traceId = UUID.randomUUID().toString().replace("-", "");
            String requestId = "packaged-" + UUID.randomUUID();
            String[] partnerId = new String[1];
            List<String> printed = assertStartsReady("json-lines", environment, () -> {
                String gateway = "http://127.0.0.1:" + port;
                JsonPath partner = given().baseUri(gateway).header("x-ops-key", OPS_KEY).contentType("application/json")
                        .body(Map.of("name", "Packaged JSON lines")).post("/ops/v1/partners")
                        .then().statusCode(201).extract().jsonPath();
                partnerId[0] = partner.getString("partner.id");
                given().baseUri(gateway).header("x-api-key", partner.getString("apiKey")).header("X-Request-Id", requestId)
                        .header("traceparent", "00-" + traceId + "-53995c3f42cd8ad8-01")
                        .get("/v1/requests").then().statusCode(200).header("X-Request-Id", requestId);
            });

            List<JsonNode> lines = assertJsonLines(printed, "gateway");
            List<JsonNode> ofTheCall = lines.stream()
                    .filter(line -> line.path("mdc").path("requestId").asText().equals(requestId)).toList();
            JsonNode access = ofTheCall.stream().filter(line -> line.path("loggerName").asText().equals("access"))
                    .findFirst().orElseThrow(() -> new AssertionError("no access line of the call among " + lines));
            assertTrue(access.path("message").asText().startsWith("GET /v1/requests 200 "), access.toString());
            assertEquals(partnerId[0], access.path("mdc").path("partnerId").asText(), access.toString());
            assertEquals(traceId, access.path("mdc").path("traceId").asText(), access.toString());
            // The call went on under the partner's trace, with the gateway's span as parent.
            assertEquals(1, received.size(), received.toString());
            String forwarded = received.get(0).get("traceparent");
            assertTrue(forwarded != null && forwarded.matches("00-" + traceId + "-[0-9a-f]{16}-01")
                    && !forwarded.contains("53995c3f42cd8ad8"), String.valueOf(forwarded));
            assertEquals(requestId, received.get(0).get("x-request-id"));
        } finally {
            requestsService.stop(0);
        }
    }
}

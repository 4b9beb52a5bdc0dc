package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One partner call followed by its W3C trace id: {@code POST /v1/requests} with an inline member and
 * a drug goes through the gateway to requests-service, which calls members-service (the member) and
 * reads the drug from its copy of the catalogue (or asks catalogue-service for a drug not copied yet).
 * Every one of the three writes a log line of the call that carries the caller's trace id and the
 * caller's request id; the {@code member.created} event that members-service records in its outbox
 * reaches Kafka with a {@code traceparent} header of the same trace. The operator's drug PUT is traced
 * the same way into the catalogue copy: catalogue-service's line, then requests-service's consumer line
 * for the {@code catalogue.drug_changed} it published.
 */
@ExtendWith(RunningPlatform.class)
class TraceAcrossServicesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Duration LOGGED = Duration.ofSeconds(20);
    private static final List<PlatformService> ON_THE_PATH = List.of(
            PlatformService.GATEWAY, PlatformService.REQUESTS, PlatformService.MEMBERS);

    private static RequestSpecification ops(RunningPlatform.Handle platform) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    @Test
    void onePartnerCallsTraceIdAndRequestIdAreInEveryServicesLogLinesAndInItsEventsHeader(RunningPlatform.Handle platform) {
        JsonPath partner = ops(platform).body(Map.of("name", "Trace E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
        String drugId = "trace-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        String opsTraceId = randomHex(16);
        String skuId = ops(platform).header("traceparent", "00-" + opsTraceId + "-" + randomHex(8) + "-01").body("""
                        {"name": "Tracing E2E", "classification": "non-controlled",
                         "skus": [{"label": "10 mg tablet", "packageSize": 30,
                                   "concentration": {"value": 10, "activeUnit": "mg", "baseUnit": "tablet"}, "active": true}],
                         "pharmacy": {"id": "sandbox", "method": "integration_a"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200).extract().path("drug.skus[0].id");

        // The drug change reaches requests-service's copy in the operator's trace.
        await("catalogue-service logs the drug PUT").atMost(LOGGED).untilAsserted(() ->
                assertTrue(linesOf(platform, PlatformService.CATALOGUE, opsTraceId).stream().anyMatch(line -> line.contains("DrugOpsResource.put 200")),
                        "catalogue-service: " + linesOf(platform, PlatformService.CATALOGUE, opsTraceId)));
        await("requests-service applies the drug change").atMost(LOGGED).untilAsserted(() ->
                assertTrue(linesOf(platform, PlatformService.REQUESTS, opsTraceId).stream()
                                .anyMatch(line -> line.contains("catalogue.events: catalogue.drug_changed applied")),
                        "requests-service: " + linesOf(platform, PlatformService.REQUESTS, opsTraceId)));

        String traceId = randomHex(16);
        String requestId = "trace-e2e-" + UUID.randomUUID();
        String memberId = given().baseUri(platform.gateway().toString())
                .header("x-api-key", partner.getString("apiKey"))
                .header("X-Request-Id", requestId)
                .header("traceparent", "00-" + traceId + "-" + randomHex(8) + "-01")
                .contentType(ContentType.JSON)
                .body("""
                        {"caseNotes": "Trace me",
                         "member": {"firstName": "Edsger", "lastName": "Dijkstra", "email": "edsger.%s@example.com",
                                    "dateOfBirth": "1930-05-11", "state": "TX", "gender": "m",
                                    "address": {"street1": "1 University Ave", "city": "Austin", "state": "TX", "zipCode": "78712"}},
                         "items": [{"drugId": "%s", "requestedSkuId": "%s"}]}""".formatted(UUID.randomUUID(), drugId, skuId))
                .post("/v1/requests")
                .then().statusCode(201)
                .header("X-Request-Id", requestId)
                .body("itemCount", equalTo(1))
                .extract().path("memberId");

        // Every service on the path logged the call under the caller's trace id and request id; the
        // gateway and requests-service, which serve the partner's call, under its partner id too.
        String partnerId = partner.getString("partner.id");
        for (PlatformService service : ON_THE_PATH) {
            String marks = service == PlatformService.GATEWAY || service == PlatformService.REQUESTS
                    ? "[req:" + requestId + "] [partner:" + partnerId + "] [trace:" + traceId + "]"
                    : "[req:" + requestId + "] ";
            await(service + " logs a line of the call").atMost(LOGGED).untilAsserted(() -> {
                List<String> lines = linesOf(platform, service, traceId);
                assertTrue(lines.stream().anyMatch(line -> line.contains(marks)),
                        service + " has no line with " + marks + " and the trace id; its lines of the trace: " + lines);
            });
        }
        // Nothing of the trace is logged under another request id.
        for (PlatformService service : ON_THE_PATH) {
            List<String> lines = linesOf(platform, service, traceId);
            assertTrue(lines.stream().allMatch(line -> line.contains("[req:" + requestId + "]")), service + ": " + lines);
        }

        // Across Kafka: members-service's member.created carries the trace on.
        List<ConsumerRecord<String, String>> records = TopicReader.readKey(platform.infrastructure().kafka().bootstrapServers(),
                "member.events", memberId, 1, Duration.ofSeconds(30));
        ConsumerRecord<String, String> created = records.get(0);
        assertEquals("member.created", TopicReader.json(created).get("type").asText());
        Header traceparent = created.headers().lastHeader("traceparent");
        assertNotNull(traceparent, "member.created has no traceparent header");
        String value = new String(traceparent.value(), StandardCharsets.US_ASCII);
        assertTrue(value.matches("00-" + traceId + "-[0-9a-f]{16}-01"), value);
    }

    private static List<String> linesOf(RunningPlatform.Handle platform, PlatformService service, String traceId) {
        try {
            return Files.readAllLines(platform.platform().log(service)).stream().map(TraceAcrossServicesIT::marked)
                    .filter(line -> line.contains("[trace:" + traceId + "]")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A line with the marks the plain format writes ({@code [req:..] [partner:..] [trace:..]} then the
     * message), whichever format the service logs in: a JSON line (a deployment's format, which the
     * shared platform's {@link RunningPlatform#JSON_LOGS} use) carries them in {@code mdc}.
     */
    static String marked(String line) {
        if (!line.startsWith("{")) {
            return line;
        }
        try {
            JsonNode json = JSON.readTree(line);
            JsonNode mdc = json.path("mdc");
            return "[req:" + mdc.path("requestId").asText("") + "] [partner:" + mdc.path("partnerId").asText("") + "] [trace:"
                    + mdc.path("traceId").asText("") + "] " + json.path("message").asText("");
        } catch (IOException notJson) {
            return line;
        }
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}

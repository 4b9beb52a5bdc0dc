package com.telemed.common.request;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.OtherSettings;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With JSON console logs on, as a deployment has them (platform-commons' defaults turn them off only
 * under dev, test and local), a call's line is one JSON object with the service's name and, in its
 * log context, the call's request id and partner id.
 */
@QuarkusTest
@TestProfile(OtherSettings.class)
class JsonLogLinesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aPartnerCallsLineIsOneJsonObjectWithServiceRequestIdAndPartnerId() throws Exception {
        try (CapturedLines captured = new CapturedLines()) {
            given().header("X-Request-Id", "req-json-1").header("X-Partner-Id", "partner-json-1")
                    .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                    .get("/probe/log").then().statusCode(200);
            given().header("X-Request-Id", "req-json-2").get("/probe/log").then().statusCode(200);

            List<CapturedLines.Line> lines = captured.lines();
            assertEquals(2, lines.size(), lines.toString());
            String first = lines.get(0).console();
            assertEquals(1, first.strip().lines().count(), first);
            JsonNode line = JSON.readTree(first);
            assertEquals("platform-commons", line.path("service").asText(), first);
            // The trace id is the caller's, the parent id the caller's span; the span id is this service's span of the call.
            JsonNode mdc = line.path("mdc");
            assertEquals(List.of("parentId", "partnerId", "requestId", "sampled", "spanId", "traceId"), sortedNames(mdc), first);
            assertEquals("b7ad6b7169203331", mdc.path("parentId").asText(), first);
            assertEquals("req-json-1", mdc.path("requestId").asText(), first);
            assertEquals("partner-json-1", mdc.path("partnerId").asText(), first);
            assertEquals("0af7651916cd43dd8448eb211c80319c", mdc.path("traceId").asText(), first);
            assertTrue(mdc.path("spanId").asText().matches("[0-9a-f]{16}") && !mdc.path("spanId").asText().equals("b7ad6b7169203331"), first);
            assertEquals("true", mdc.path("sampled").asText(), first);
            assertEquals("probe line", line.path("message").asText(), first);
            assertEquals("INFO", line.path("level").asText(), first);
            assertEquals(LogProbeResource.LOGGER, line.path("loggerName").asText(), first);

            JsonNode second = JSON.readTree(lines.get(1).console());
            assertEquals("platform-commons", second.path("service").asText());
            assertEquals(List.of("requestId", "sampled", "spanId", "traceId"), sortedNames(second.path("mdc")), lines.get(1).console());
            assertEquals("req-json-2", second.path("mdc").path("requestId").asText());
            assertTrue(second.path("mdc").path("traceId").asText().matches("[0-9a-f]{32}"), lines.get(1).console());
        }
    }

    private static List<String> sortedNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names.stream().sorted().toList();
    }
}

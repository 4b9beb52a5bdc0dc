package com.telemed.common.request;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With JSON console logs on, as a deployment has them (platform-commons' defaults turn them off only
 * under dev, test and local), a call's line is one JSON object with the service's name and, in its
 * log context, the call's request id and partner id.
 */
@QuarkusTest
@TestProfile(JsonLogLinesTest.JsonLogs.class)
class JsonLogLinesTest {

    /** The prod profile's log settings under the test profile. */
    public static class JsonLogs implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("%test.quarkus.log.console.json.enabled", "true", "quarkus.log.console.json.enabled", "true");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aPartnerCallsLineIsOneJsonObjectWithServiceRequestIdAndPartnerId() throws Exception {
        try (CapturedLines captured = new CapturedLines()) {
            given().header("X-Request-Id", "req-json-1").header("X-Partner-Id", "partner-json-1")
                    .get("/probe/log").then().statusCode(200);
            given().header("X-Request-Id", "req-json-2").get("/probe/log").then().statusCode(200);

            List<CapturedLines.Line> lines = captured.lines();
            assertEquals(2, lines.size(), lines.toString());
            String first = lines.get(0).console();
            assertEquals(1, first.strip().lines().count(), first);
            JsonNode line = JSON.readTree(first);
            assertEquals("platform-commons", line.path("service").asText(), first);
            assertEquals(JSON.readTree("{\"requestId\":\"req-json-1\",\"partnerId\":\"partner-json-1\"}"), line.path("mdc"), first);
            assertEquals("probe line", line.path("message").asText(), first);
            assertEquals("INFO", line.path("level").asText(), first);
            assertEquals(LogProbeResource.LOGGER, line.path("loggerName").asText(), first);

            JsonNode second = JSON.readTree(lines.get(1).console());
            assertEquals("platform-commons", second.path("service").asText());
            assertEquals(JSON.readTree("{\"requestId\":\"req-json-2\"}"), second.path("mdc"), lines.get(1).console());
        }
    }
}

package com.telemed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Exact checks of webhook payloads as partners receive them (partner-api.md, "Webhooks"). */
final class WebhookPayloads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private WebhookPayloads() {
    }

    /**
     * The payload has exactly these fields, in this order, with these values, then a
     * {@code timestamp} in the contract's millisecond UTC format.
     */
    static void assertPayload(JsonNode actual, Object... keysAndValues) {
        Map<String, Object> expected = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            expected.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        expected.put("timestamp", actual.path("timestamp").asText());
        assertTrue(actual.path("timestamp").asText().matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"),
                actual.path("timestamp").asText());
        Map<?, ?> actualMap = JSON.convertValue(actual, LinkedHashMap.class);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(actualMap.keySet()));
        assertEquals(expected, actualMap);
    }
}

package com.telemed.bench.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the benchmark posts into, created through the gateway as a partner and a back office would:
 * a partner, one prescriber (operator API, requests-service), and {@code count} members (partner API),
 * each in a conversation of its own with that prescriber (a conversation is one per member and
 * prescriber).
 */
record MessagingData(String partnerId, String apiKey, String prescriberId, List<String> conversations) {

    static MessagingData create(GatewayApi api, int count) throws Exception {
        JsonNode partner = api.partner("Bench Messaging");
        String partnerId = partner.path("partner").path("id").asText();
        String apiKey = partner.path("apiKey").asText();
        String prescriberId = api.send("POST", "/ops/v1/prescribers", GatewayApi.JSON.writeValueAsString(
                Map.of("name", "Dr. Bench Messaging", "email", "prescriber.messaging." + System.nanoTime() + "@example.com")), 201)
                .path("prescriber").path("id").asText();
        List<String> conversations = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String memberId = api.as(apiKey, "POST", "/v1/members", """
                    {"firstName": "Ada", "lastName": "Bench%d", "email": "ada.bench.%d@example.com",
                     "dateOfBirth": "1980-02-03", "state": "CA",
                     "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90001"}}"""
                    .formatted(i, i), 201).path("member").path("id").asText();
            conversations.add(api.as(apiKey, "POST", "/v1/messages/conversations", GatewayApi.JSON.writeValueAsString(
                    Map.of("memberId", memberId, "prescriberId", prescriberId)), 201).path("conversation").path("id").asText());
        }
        return new MessagingData(partnerId, apiKey, prescriberId, List.copyOf(conversations));
    }
}

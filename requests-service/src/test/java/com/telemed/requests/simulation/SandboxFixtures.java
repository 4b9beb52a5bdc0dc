package com.telemed.requests.simulation;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.request.RequestEvents;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A sandbox partner with one drug (one active SKU) and one member, and the calls of the sandbox simulation. */
record SandboxFixtures(String partner, String drugId, String memberId) {

    static SandboxFixtures create(FakeNeighbours neighbours) {
        String partner = RequestFixtures.newPartner();
        String drugId = RequestFixtures.newDrugId();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg"), partner);
        String memberId = neighbours.seedMember(partner, "Grace", "Hopper", "grace+" + UUID.randomUUID() + "@example.com");
        return new SandboxFixtures(partner, drugId, memberId);
    }

    /** A pending prescription request of the drug; its id. */
    String request() {
        return RequestFixtures.created(partner, RequestFixtures.prescription(memberId, drugId));
    }

    /** A prescription request with {@code simulation}; its id. */
    String autopiloted(Map<String, Object> simulation) {
        Map<String, Object> body = new LinkedHashMap<>(RequestFixtures.prescription(memberId, drugId));
        body.put("simulation", simulation);
        return RequestFixtures.created(partner, body);
    }

    Response simulate(String requestId, Map<String, Object> body) {
        return simulate(partner, requestId, body);
    }

    static Response simulate(String partner, String requestId, Object body) {
        return given().header("X-Partner-Id", partner).contentType("application/json").body(body)
                .post("/v1/sandbox/requests/" + requestId + "/simulate");
    }

    static Map<String, Object> action(String action, Object... fields) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("action", action);
        for (int index = 0; index < fields.length; index += 2) {
            body.put((String) fields[index], fields[index + 1]);
        }
        return body;
    }

    /** The request's envelopes on care.events: exactly {@code expected} of them (a settle period shows no more). */
    static List<JsonNode> events(String requestId, int expected) {
        return TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC, requestId,
                expected, Duration.ofSeconds(30)));
    }

    static List<String> types(List<JsonNode> envelopes) {
        return envelopes.stream().map(envelope -> envelope.path("type").asText()).toList();
    }

    /** The request's history actions, oldest first. */
    static List<String> history(String requestId) {
        return ServiceDatabase.texts("SELECT action FROM history_entries WHERE request_id = ?::uuid ORDER BY at, action", requestId);
    }

    /** The sandbox prescriber's id (created on first use). */
    static String sandboxPrescriber() {
        return ServiceDatabase.texts("SELECT id::text FROM prescribers WHERE lower(email) = 'sandbox-prescriber@sandbox.invalid'").get(0);
    }
}

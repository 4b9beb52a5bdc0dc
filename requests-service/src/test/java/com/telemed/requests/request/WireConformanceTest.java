package com.telemed.requests.request;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.openapi.WireCheck;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The wire records of requests-service against the gateway's OpenAPI documents (issue 22): a
 * request's life (created, read, listed, approved, sent, cancelled; a consultation request in the
 * compatibility list shape) answers bodies that the partner document's schemas accept, and the
 * webhook payloads it publishes are valid against {@code webhooks.<event>}.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class WireConformanceTest {

    private final WireCheck wire = WireCheck.against("partner.yaml");

    @Inject
    FakeNeighbours neighbours;

    @Test
    void aRequestsLifeAndItsEventsConformToThePartnerDocument() throws IOException {
        neighbours.reset();
        PendingRequest pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        String partner = pending.partner();
        wire.answer("get", "/v1/requests/{id}", 200, RequestFixtures.get(partner, pending.requestId()));
        wire.answer("get", "/v1/requests", 200, RequestFixtures.list(partner, ""));

        Map<String, Object> prescription = new LinkedHashMap<>();
        prescription.put("skuId", FakeNeighbours.skuId(pending.drugId(), 0));
        prescription.put("quantity", 4);
        prescription.put("daysSupply", 30);
        prescription.put("directions", "Inject weekly");
        prescription.put("refills", 0);
        prescription.put("dispenseAsWritten", false);
        given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId(), "prescription", prescription))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/approve")
                .then().statusCode(200);
        wire.answer("get", "/v1/requests/{id}", 200, RequestFixtures.get(partner, pending.requestId()));
        // Sent at approval (automatic mode) or now: 400 "already sent" or 200, both documented.
        Response sent = RequestFixtures.as(partner)
                .post("/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/send-to-pharmacy");
        wire.answer("post", "/v1/requests/{requestId}/items/{itemId}/send-to-pharmacy", sent.statusCode(), sent);
        wire.answer("post", "/v1/requests/{id}/cancel", 200, RequestFixtures.cancel(partner, pending.requestId(), null));
        wire.answer("get", "/v1/requests/{id}", 200, RequestFixtures.get(partner, pending.requestId()));

        String consultation = RequestFixtures.created(partner, RequestFixtures.consultation(pending.memberId()));
        wire.answer("get", "/v1/requests/{id}", 200, RequestFixtures.get(partner, consultation));
        wire.answer("get", "/v1/requests", 200, RequestFixtures.list(partner, ""));
        wire.answer("post", "/v1/requests/{id}/cancel", 200, RequestFixtures.as(partner).contentType("application/json")
                .body(Map.of("reason", "changed plans")).post("/v1/requests/" + pending.requestId() + "/cancel"));

        List<JsonNode> envelopes = TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                RequestEvents.TOPIC, pending.requestId(), 2, Duration.ofSeconds(30)));
        wire.events(envelopes);
        assertEquals(List.of(), wire.problems());
    }
}

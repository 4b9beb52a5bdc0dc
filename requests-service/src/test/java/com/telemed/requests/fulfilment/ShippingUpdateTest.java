package com.telemed.requests.fulfilment;

import static com.telemed.requests.fulfilment.Fulfilled.approve;
import static com.telemed.requests.fulfilment.Fulfilled.read;
import static com.telemed.requests.fulfilment.Fulfilled.sent;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /ops/v1/pharmacy/updates} and the delivery events (operations-api.md, "Pharmacy
 * integration"; partner-api.md, "Delivery events"), on an item the sandbox pharmacy accepted.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class ShippingUpdateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;
    String orderId;

    @BeforeEach
    void sentItem() {
        neighbours.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        approve(pending).then().statusCode(200);
        await().atMost(Duration.ofSeconds(15)).until(() -> sent(pending));
        orderId = read(pending).then().extract().path("lineItems[0].prescriptionRecord.pharmacyOrderId");
    }

    private static Response update(String body) {
        return given().contentType("application/json").body(body).post("/ops/v1/pharmacy/updates");
    }

    private Map<String, Object> applied(String event) {
        Map<String, Object> applied = new LinkedHashMap<>();
        applied.put("success", true);
        applied.put("requestId", pending.requestId());
        applied.put("itemId", pending.itemId());
        applied.put("event", event);
        return applied;
    }

    /** The delivery events of the request on care.events, in order (approval's events filtered out). */
    private List<JsonNode> deliveryEvents(int expected) {
        return TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC,
                        pending.requestId(), expected + 2, Duration.ofSeconds(30))).stream()
                .filter(envelope -> envelope.path("type").asText().equals("item.shipped")
                        || envelope.path("type").asText().equals("delivery.update"))
                .map(envelope -> envelope.get("webhook"))
                .toList();
    }

    private Map<String, Object> payload(String event, String status, String tracking, String carrier, String timestamp) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("event", event);
        payload.put("requestId", pending.requestId());
        payload.put("memberId", pending.memberId());
        payload.put("itemId", pending.itemId());
        payload.put("status", status);
        if (tracking != null) {
            payload.put("trackingNumber", tracking);
        }
        if (carrier != null) {
            payload.put("shipCarrier", carrier);
        }
        payload.put("daysSupply", 30);
        payload.put("timestamp", timestamp);
        return payload;
    }

    @Test
    void theFirstShippedUpdateSendsItemShippedAndEveryOtherChangeDeliveryUpdate() {
        assertEquals(applied("delivery.update"),
                update("{\"pharmacyOrderId\": \"" + orderId + "\", \"status\": \"Label created\"}").then().statusCode(200)
                        .extract().jsonPath().getMap(""));
        assertEquals(applied("item.shipped"), update("""
                {"pharmacyOrderId": "%s", "status": "In transit", "trackingNumber": "1Z999", "shipCarrier": "UPS", "shipped": true}"""
                .formatted(orderId)).then().statusCode(200).extract().jsonPath().getMap(""));
        // The pharmacy repeats itself: nothing changes, nothing is sent.
        assertEquals(applied(null), update("""
                {"pharmacyOrderId": "%s", "status": "In transit", "trackingNumber": "1Z999", "shipCarrier": "UPS", "shipped": true}"""
                .formatted(orderId)).then().statusCode(200).extract().jsonPath().getMap(""));
        assertEquals(applied("delivery.update"), update("""
                {"pharmacyOrderId": "%s", "status": "Delivered", "shipped": true}""".formatted(orderId))
                .then().statusCode(200).extract().jsonPath().getMap(""));

        read(pending).then().statusCode(200)
                .body("lineItems[0].status", equalTo("approved"))
                .body("lineItems[0].deliveryStatus", equalTo("Delivered"))
                .body("lineItems[0].trackingNumber", equalTo("1Z999"))
                .body("lineItems[0].shipCarrier", equalTo("UPS"));
        given().header("X-Partner-Id", pending.partner()).get("/v1/requests").then().statusCode(200)
                .body("requests[0].lineItems[0].deliveryStatus", equalTo("Delivered"))
                .body("requests[0].lineItems[0].trackingNumber", equalTo("1Z999"));

        List<JsonNode> events = deliveryEvents(3);
        assertEquals(3, events.size(), events.toString());
        for (JsonNode event : events) {
            assertTrue(event.path("timestamp").asText().matches(TIMESTAMP), event.toString());
        }
        assertEquals(JSON.valueToTree(payload("delivery.update", "Label created", null, null,
                events.get(0).path("timestamp").asText())), events.get(0));
        assertEquals(JSON.valueToTree(payload("item.shipped", "In transit", "1Z999", "UPS",
                events.get(1).path("timestamp").asText())), events.get(1));
        assertEquals(JSON.valueToTree(payload("delivery.update", "Delivered", "1Z999", "UPS",
                events.get(2).path("timestamp").asText())), events.get(2));
    }

    @Test
    void unknownOrdersAndMalformedUpdatesAreRefused() {
        update("{\"pharmacyOrderId\": \"ord_unknown\", \"status\": \"Shipped\"}").then().statusCode(404)
                .body("error", equalTo("Order not found"));
        update("{\"pharmacyOrderId\": \"" + orderId + "\"}").then().statusCode(400)
                .body("error[0].code", equalTo("invalid_type"))
                .body("error[0].path", equalTo(List.of("status")))
                .body("error[0].message", equalTo("Required"));
        update("{\"pharmacyOrderId\": \"" + orderId + "\", \"status\": \"Shipped\", \"shipped\": \"yes\"}").then().statusCode(400)
                .body("error[0].path", equalTo(List.of("shipped")))
                .body("error[0].message", equalTo("Expected boolean, received string"));
        update("{\"pharmacyOrderId\": ").then().statusCode(400).body("error", equalTo("Invalid JSON"));
        read(pending).then().body("lineItems[0].deliveryStatus", nullValue());
    }
}

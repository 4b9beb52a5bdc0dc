package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.TIMESTAMP;
import static com.telemed.requests.request.RequestFixtures.cancel;
import static com.telemed.requests.request.RequestFixtures.consultation;
import static com.telemed.requests.request.RequestFixtures.created;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.get;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** POST /v1/requests/:id/cancel and its care.events (partner-api.md, Requests and Payloads). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestCancelTest extends PartnerWithDrugAndMember {

    @Override
    protected List<String> dosages() {
        return List.of("0.25mg");
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private String newRequest() {
        return created(partner, prescription(memberId, drugId));
    }

    private String itemId(String requestId) {
        return get(partner, requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
    }

    private static Map<String, Object> cancelledAll(String requestId, String itemId) {
        Map<String, Object> cancelled = new LinkedHashMap<>();
        cancelled.put("itemId", itemId);
        cancelled.put("previousStatus", "pending");
        cancelled.put("prescriptionId", null);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", true);
        expected.put("requestId", requestId);
        expected.put("cancelled", List.of(cancelled));
        expected.put("skipped", List.of());
        expected.put("aggregateStatus", "cancelled");
        return expected;
    }

    @Test
    void noBodyCancelsEverything() {
        String id = newRequest();
        String itemId = itemId(id);
        cancel(partner, id, null).then().statusCode(200).body("", equalTo(cancelledAll(id, itemId)));
        get(partner, id).then().statusCode(200)
                .body("status", equalTo("cancelled"))
                .body("statusSummary", equalTo("1 drug - 1 cancelled"))
                .body("lineItems[0].status", equalTo("cancelled"));
    }

    @Test
    void emptyBodyCancelsEverythingWithTheDefaultReason() {
        String id = newRequest();
        String itemId = itemId(id);
        cancel(partner, id, Map.of()).then().statusCode(200).body("", equalTo(cancelledAll(id, itemId)));
        List<Map<String, Object>> history = get(partner, id).then().extract().jsonPath().getList("lineItems[0].history");
        Map<String, Object> last = history.get(history.size() - 1);
        assertEquals("cancelled", last.get("action"));
        assertEquals("cancelled by partner", last.get("reason"));
        assertEquals("partner:" + partner, last.get("by"));
        assertTrue(((String) last.get("timestamp")).matches(TIMESTAMP));
    }

    @Test
    void repeatingSkipsAlreadyCancelledItems() {
        String id = newRequest();
        String itemId = itemId(id);
        cancel(partner, id, null).then().statusCode(200);
        Map<String, Object> skipped = new LinkedHashMap<>();
        skipped.put("itemId", itemId);
        skipped.put("status", "cancelled");
        skipped.put("reason", "already cancelled");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", true);
        expected.put("requestId", id);
        expected.put("cancelled", List.of());
        expected.put("skipped", List.of(skipped));
        expected.put("aggregateStatus", "cancelled");
        cancel(partner, id, null).then().statusCode(200).body("", equalTo(expected));
    }

    @Test
    void customReasonIsRecordedInItemHistory() {
        String id = newRequest();
        cancel(partner, id, Map.of("reason", "patient changed their mind")).then().statusCode(200);
        List<Map<String, Object>> history = get(partner, id).then().extract().jsonPath().getList("lineItems[0].history");
        Map<String, Object> last = history.get(history.size() - 1);
        assertEquals("cancelled", last.get("action"));
        assertEquals("patient changed their mind", last.get("reason"));
        assertEquals("partner:" + partner, last.get("by"));
    }

    @Test
    void itemIdsRestrictTheCancel() {
        String id = newRequest();
        String itemId = itemId(id);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", true);
        expected.put("requestId", id);
        expected.put("cancelled", List.of());
        expected.put("skipped", List.of());
        expected.put("aggregateStatus", "pending");
        cancel(partner, id, Map.of("itemIds", List.of(UUID.randomUUID().toString()))).then().statusCode(200)
                .body("", equalTo(expected));
        get(partner, id).then().body("lineItems[0].status", equalTo("pending"));
        cancel(partner, id, Map.of("itemIds", List.of(itemId))).then().statusCode(200)
                .body("", equalTo(cancelledAll(id, itemId)));
    }

    @Test
    void wrongContentTypeIsUnsupported() {
        String id = newRequest();
        RequestFixtures.as(partner).contentType("text/plain").body("reason").when().post("/v1/requests/" + id + "/cancel")
                .then().statusCode(415).body("", equalTo(error("Unsupported Media Type")));
        get(partner, id).then().body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void consultationRequestCannotBeCancelled() {
        String id = created(partner, consultation(memberId));
        cancel(partner, id, null).then().statusCode(400)
                .body("", equalTo(error("Request has no line items (legacy single-drug request not supported here)")));
    }

    @Test
    void cancelEmitsItemCanceledThenAllCanceled() throws Exception {
        String id = newRequest();
        String itemId = itemId(id);
        cancel(partner, id, null).then().statusCode(200);
        List<JsonNode> envelopes = TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC, id, 2, Duration.ofSeconds(30)));
        assertEquals("item.canceled", envelopes.get(0).path("type").asText());
        assertEquals("request.all_canceled", envelopes.get(1).path("type").asText());
        JsonNode itemCanceled = envelopes.get(0).get("webhook");
        String timestamp = itemCanceled.path("timestamp").asText();
        assertTrue(timestamp.matches(TIMESTAMP), timestamp);
        Map<String, Object> expectedItem = new LinkedHashMap<>();
        expectedItem.put("event", "item.canceled");
        expectedItem.put("requestId", id);
        expectedItem.put("itemId", itemId);
        expectedItem.put("status", "cancelled");
        expectedItem.put("patientName", "Grace Hopper");
        expectedItem.put("prescriptionName", drugId);
        expectedItem.put("timestamp", timestamp);
        assertEquals(JSON.valueToTree(expectedItem), itemCanceled);
        JsonNode allCanceled = envelopes.get(1).get("webhook");
        Map<String, Object> expectedAll = new LinkedHashMap<>();
        expectedAll.put("event", "request.all_canceled");
        expectedAll.put("requestId", id);
        expectedAll.put("status", "all_canceled");
        expectedAll.put("patientName", "Grace Hopper");
        expectedAll.put("prescriptionName", "");
        expectedAll.put("timestamp", allCanceled.path("timestamp").asText());
        assertEquals(JSON.valueToTree(expectedAll), allCanceled);
        assertTrue(allCanceled.path("timestamp").asText().matches(TIMESTAMP));
        assertEquals(partner, envelopes.get(0).path("partnerId").asText());
    }

    @Test
    void creationEmitsNothingAndARepeatedCancelNothingMore() {
        String id = newRequest();
        TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC, id, 0, Duration.ofSeconds(4)));
        cancel(partner, id, null).then().statusCode(200);
        cancel(partner, id, null).then().statusCode(200);
        TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC, id, 2, Duration.ofSeconds(30)));
    }
}

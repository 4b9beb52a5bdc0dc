package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.kafka.TopicReader;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The other console decisions through the gateway against the real services, each with the exact
 * events it must put on {@code care.events} (operations-api.md, "Review"; partner-api.md, "Payloads").
 */
@ExtendWith(RunningPlatform.class)
class ReviewDecisionsThroughGatewayIT {

    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    private RunningPlatform.Handle platform;
    private String key;
    private String partnerId;
    private String drugId;
    private List<String> skuIds;
    private String prescriberId;

    @BeforeEach
    void partnerDrugAndPrescriber(RunningPlatform.Handle platform) {
        this.platform = platform;
        JsonPath partner = ops().body(Map.of("name", "Review E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
        key = partner.getString("apiKey");
        partnerId = partner.getString("partner.id");
        // Deferred: approved items stay untransmitted, so they can still be cancelled and their history is the console's.
        ops().body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partnerId + "/fulfilment").then().statusCode(200);
        drugId = "fin-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        skuIds = ops().body("""
                        {"name": "Finasteride E2E", "classification": "non-controlled",
                         "skus": [{"label": "1 mg", "active": true}, {"label": "5 mg", "active": true}],
                         "pharmacy": {"id": "sandbox", "method": "email"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200).extract().path("drug.skus.id");
        prescriberId = ops().body(Map.of("name", "Dr Lin", "email", "lin." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner() {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", key);
    }

    /** A new request for a new inline member (Ann Lee), with the drug's first SKU requested; returns {requestId, itemId}. */
    private String[] request() {
        String requestId = partner().contentType(ContentType.JSON).body("""
                        {"caseNotes": "Seasonal allergies since spring", "items": [{"drugId": "%s", "dosage": "1 mg"}],
                         "member": {"firstName": "Ann", "lastName": "Lee", "email": "ann.%s@example.com",
                                    "dateOfBirth": "1980-01-02", "state": "CA",
                                    "address": {"street1": "1 A St", "city": "B", "state": "CA", "zipCode": "90001"}}}"""
                        .formatted(drugId, UUID.randomUUID()))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        String itemId = partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        return new String[] {requestId, itemId};
    }

    private List<JsonNode> events(String requestId, int expected) {
        return TopicReader.jsons(TopicReader.readKey(platform.infrastructure().kafka().bootstrapServers(), "care.events", requestId, expected, Duration.ofSeconds(30)));
    }

    @Test
    void denyingTheOnlyItemSendsItemDeniedThenAllDenied() {
        String[] ids = request();
        ops().body(Map.of("prescriberId", prescriberId, "reason", "contraindicated"))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/deny")
                .then().statusCode(200).body("request.status", equalTo("denied")).body("request.storedStatus", equalTo("denied"));

        partner().get("/v1/requests/" + ids[0]).then().statusCode(200)
                .body("status", equalTo("denied"))
                .body("lineItems[0].history[1].action", equalTo("denied"))
                .body("lineItems[0].history[1].reason", equalTo("contraindicated"))
                .body("lineItems[0].history[1].by", equalTo(prescriberId));
        List<JsonNode> events = events(ids[0], 2);
        assertPayload(events.get(0).get("webhook"), "event", "item.denied", "requestId", ids[0], "itemId", ids[1],
                "status", "denied", "patientName", "Ann Lee", "prescriptionName", "Finasteride E2E");
        assertPayload(events.get(1).get("webhook"), "event", "request.all_denied", "requestId", ids[0],
                "status", "all_denied", "patientName", "Ann Lee", "prescriptionName", drugId);
        // Decided: a second decision is refused, and nothing more is sent.
        ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/approve")
                .then().statusCode(400).body("error", equalTo("Item status is 'denied', expected 'pending' or 'call_requested'"));
    }

    @Test
    void aConsultationIssuesABookingLinkAndTheItemIsStillDecidedAfterwards() {
        String[] ids = request();
        String bookingUrl = ops().body(Map.of("prescriberId", prescriberId))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/request-consultation")
                .then().statusCode(200)
                .body("request.status", equalTo("call_requested"))
                .body("request.storedStatus", equalTo("pending"))
                .body("booking.bookingUrl", matchesPattern(java.util.regex.Pattern.quote(platform.gateway() + "/book/") + "[A-Za-z0-9_-]{32}"))
                .extract().path("booking.bookingUrl");
        partner().queryParam("status", "call_requested").get("/v1/requests").then().statusCode(200)
                .body("requests.id", equalTo(List.of(ids[0])));
        partner().queryParam("status", "pending").get("/v1/requests").then().statusCode(200)
                .body("requests", equalTo(List.of()));
        ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/approve")
                .then().statusCode(200).body("request.status", equalTo("approved"))
                .body("prescriptionRecord.selectedSku", equalTo("1 mg"))
                .body("prescriptionRecord.selectedSkuId", equalTo(skuIds.get(0)));

        List<JsonNode> events = events(ids[0], 4);
        assertEquals(List.of("item.consultation_requested", "appointment.consultation_requested", "item.approved",
                "request.all_approved"), events.stream().map(e -> e.get("type").asText()).toList());
        assertPayload(events.get(0).get("webhook"), "event", "item.consultation_requested", "requestId", ids[0],
                "itemId", ids[1], "status", "call_requested", "patientName", "Ann Lee", "prescriptionName", "Finasteride E2E");
        JsonNode appointment = events.get(1).get("webhook");
        String memberId = partner().get("/v1/requests/" + ids[0]).then().extract().path("memberId");
        assertEquals(List.of("event", "requestId", "memberId", "patientName", "patientEmail", "prescriberName", "bookingUrl",
                "bookingExpiresAt", "timestamp"), fieldNames(appointment));
        assertEquals(memberId, appointment.get("memberId").asText());
        assertEquals("Dr Lin", appointment.get("prescriberName").asText());
        assertEquals(bookingUrl, appointment.get("bookingUrl").asText());
        assertTrue(appointment.get("patientEmail").asText().startsWith("ann."));
    }

    @Test
    void cancellingAnApprovedItemVoidsItsRecordAndSendsAllCanceled() {
        String[] ids = request();
        String recordId = ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/approve")
                .then().statusCode(200).extract().path("prescriptionRecord.id");
        partner().contentType(ContentType.JSON).body(Map.of("reason", "patient changed their mind"))
                .post("/v1/requests/" + ids[0] + "/cancel")
                .then().statusCode(200)
                .body("cancelled", equalTo(List.of(Map.of("itemId", ids[1], "previousStatus", "approved", "prescriptionId", recordId))))
                .body("skipped", equalTo(List.of()))
                .body("aggregateStatus", equalTo("cancelled"));
        partner().get("/v1/requests/" + ids[0]).then().statusCode(200)
                .body("status", equalTo("cancelled"))
                .body("prescriptionRecords[0].status", equalTo("voided"))
                .body("prescriptionRecords[0].voidReason", equalTo("patient changed their mind"))
                .body("lineItems[0].history[2].by", equalTo("partner:" + partnerId));
        List<JsonNode> events = events(ids[0], 4);
        assertEquals(List.of("item.approved", "request.all_approved", "item.canceled", "request.all_canceled"),
                events.stream().map(e -> e.get("type").asText()).toList());
        assertPayload(events.get(2).get("webhook"), "event", "item.canceled", "requestId", ids[0], "itemId", ids[1],
                "status", "cancelled", "patientName", "Ann Lee", "prescriptionName", drugId);
        assertPayload(events.get(3).get("webhook"), "event", "request.all_canceled", "requestId", ids[0],
                "status", "all_canceled", "patientName", "Ann Lee", "prescriptionName", "");
    }

    @Test
    void theServiceWithdrawsWithItsOwnName() {
        String[] ids = request();
        ops().body(Map.of("reason", "member cancelled"))
                .post("/ops/v1/requests/" + ids[0] + "/withdraw")
                .then().statusCode(200)
                .body("cancelled[0].itemId", equalTo(ids[1]))
                .body("aggregateStatus", equalTo("cancelled"));
        partner().get("/v1/requests/" + ids[0]).then().statusCode(200)
                .body("lineItems[0].history[1].action", equalTo("cancelled"))
                .body("lineItems[0].history[1].by", equalTo("service"))
                .body("lineItems[0].history[1].reason", equalTo("member cancelled"));
        assertEquals(List.of("item.canceled", "request.all_canceled"),
                events(ids[0], 2).stream().map(e -> e.get("type").asText()).toList());
    }

    @Test
    void aVisitCompletedWithoutPrescriptionIsALegacyDenial() {
        String[] ids = request();
        ops().body(Map.of("prescriberId", prescriberId, "reason", "not a candidate"))
                .post("/ops/v1/requests/" + ids[0] + "/complete-without-rx")
                .then().statusCode(200).body("request.storedStatus", equalTo("denied"));
        partner().get("/v1/requests/" + ids[0]).then().statusCode(200)
                .body("status", equalTo("denied"))
                .body("lineItems[0].history[1].action", equalTo("completed_without_rx"));
        List<JsonNode> events = events(ids[0], 1);
        assertPayload(events.get(0).get("webhook"), "event", "request.denied", "requestId", ids[0], "status", "denied",
                "patientName", "Ann Lee", "prescriptionName", "Finasteride E2E");
    }

    @Test
    void aDosageChosenBeforeApprovalIsTheOneSigned() {
        String[] ids = request();
        ops().body(Map.of("prescriberId", prescriberId, "skuId", skuIds.get(1)))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/dosage")
                .then().statusCode(200).body("request.lineItems[0].selectedSkuId", equalTo(skuIds.get(1)));
        ops().body(Map.of("prescriberId", prescriberId, "skuId", "sku_unknown"))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/dosage")
                .then().statusCode(400).body("error", equalTo("Invalid skuId for " + drugId + ": sku_unknown"));
        ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/approve")
                .then().statusCode(200).body("prescriptionRecord.selectedSku", equalTo("5 mg"));
        partner().get("/v1/requests/" + ids[0]).then().statusCode(200)
                .body("lineItems[0].dosage", equalTo("1 mg"))
                .body("lineItems[0].prescription.dosage", equalTo("5 mg"))
                .body("lineItems[0].history.action", equalTo(List.of("created", "dosage_updated", "approved")));
    }

    @Test
    void theQueueIsOldestFirstAndLosesDecidedRequests() {
        String[] first = request();
        String[] second = request();
        List<String> queued = ops().queryParam("limit", 100).get("/ops/v1/review/queue")
                .then().statusCode(200).extract().path("requests.id");
        assertTrue(queued.indexOf(first[0]) >= 0 && queued.indexOf(first[0]) < queued.indexOf(second[0]), queued.toString());
        ops().body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + first[0] + "/items/" + first[1] + "/deny")
                .then().statusCode(200);
        List<String> after = ops().queryParam("limit", 100).get("/ops/v1/review/queue")
                .then().statusCode(200).extract().path("requests.id");
        assertTrue(!after.contains(first[0]) && after.contains(second[0]));
        ops().queryParam("limit", 0).get("/ops/v1/review/queue").then().statusCode(400)
                .body("error[0].path", equalTo(List.of("limit")));
        ops().body(Map.of("prescriberId", UUID.randomUUID().toString())).post("/ops/v1/requests/" + second[0] + "/claim")
                .then().statusCode(400).body("error", equalTo("Prescriber not found"));
        ops().body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + UUID.randomUUID() + "/claim")
                .then().statusCode(404).body("error", equalTo("Request not found"));
        ops().body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + second[0] + "/items/" + UUID.randomUUID() + "/deny")
                .then().statusCode(404).body("error", equalTo("Line item not found"));
        // The operator key never opens the partner API, and the partner key never opens the console.
        given().baseUri(platform.gateway().toString()).header("x-api-key", key).contentType(ContentType.JSON)
                .body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + second[0] + "/claim")
                .then().statusCode(401).body("error", equalTo("Ops Key missing"));
        partner().get("/v1/requests/" + second[0]).then().statusCode(200).body("providerId", nullValue())
                .body("history", hasSize(1));
    }

    @Test
    void twoPrescribersApprovingAtOnceMakeOneDecisionAndOneRecord() throws Exception {
        String[] ids = request();
        String other = ops().body(Map.of("name", "Dr Two", "email", "two." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Integer>> answers = new java.util.ArrayList<>();
            for (String prescriber : List.of(prescriberId, other)) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return ops().body(Map.of("prescriberId", prescriber, "prescription", PRESCRIPTION))
                            .post("/ops/v1/requests/" + ids[0] + "/items/" + ids[1] + "/approve").statusCode();
                }));
            }
            start.countDown();
            List<Integer> statuses = new java.util.ArrayList<>();
            for (var answer : answers) {
                statuses.add(answer.get());
            }
            statuses.sort(null);
            assertEquals(List.of(200, 400), statuses);
        } finally {
            pool.shutdownNow();
        }
        partner().get("/v1/requests/" + ids[0]).then().statusCode(200)
                .body("prescriptionRecords", hasSize(1))
                .body("lineItems[0].history.action", equalTo(List.of("created", "approved")));
        assertEquals(List.of("item.approved", "request.all_approved"),
                events(ids[0], 2).stream().map(e -> e.get("type").asText()).toList());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}

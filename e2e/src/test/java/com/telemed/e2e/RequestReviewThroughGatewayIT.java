package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.kafka.TopicReader;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The core flow as a partner and the prescriber console drive it, through the gateway against
 * every real service: a member, a request, claim and approval, the detail read back, the events
 * read off {@code care.events} and checked field by field, and the member side (summaries,
 * delete refused) answered by requests-service.
 */
@ExtendWith(RunningPlatform.class)
class RequestReviewThroughGatewayIT {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RequestSpecification ops(RunningPlatform.Handle platform) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private static RequestSpecification as(RunningPlatform.Handle platform, String key) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", key);
    }

    /**
     * A partner on deferred fulfilment: its approved items stay untransmitted, so the detail read
     * back is the review's alone (automatic fulfilment would add {@code sent_to_pharmacy} at its own pace).
     */
    private static String apiKey(RunningPlatform.Handle platform) {
        JsonPath partner = ops(platform).body(Map.of("name", "Requests E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
        ops(platform).body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partner.getString("partner.id") + "/fulfilment")
                .then().statusCode(200);
        return partner.getString("apiKey");
    }

    /** A drug with one SKU; returns the SKU id. */
    private static String drug(RunningPlatform.Handle platform, String drugId) {
        return ops(platform).body("""
                        {"name": "Semaglutide E2E", "classification": "non-controlled",
                         "skus": [{"label": "2.5 mg/mL vial", "packageSize": 2,
                                   "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}, "active": true}],
                         "pharmacy": {"id": "sandbox", "method": "integration_a"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200).extract().path("drug.skus[0].id");
    }

    private static String prescriber(RunningPlatform.Handle platform) {
        return ops(platform).body(Map.of("name", "Dr Ada Byron", "email", "ada." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    private static String member(RunningPlatform.Handle platform, String key) {
        return as(platform, key).contentType(ContentType.JSON).body("""
                        {"firstName": "Grace", "lastName": "Hopper", "email": "grace.%s@example.com",
                         "dateOfBirth": "1906-12-09", "state": "VA",
                         "address": {"street1": "1 Navy Way", "city": "Arlington", "state": "VA", "zipCode": "22201"}}"""
                        .formatted(UUID.randomUUID()))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
    }

    @Test
    void memberRequestClaimApproveAndReadBack(RunningPlatform.Handle platform) {
        String key = apiKey(platform);
        String drugId = "sema-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        String skuId = drug(platform, drugId);
        String prescriberId = prescriber(platform);
        String memberId = member(platform, key);

        String requestId = as(platform, key).contentType(ContentType.JSON)
                .body(Map.of("memberId", memberId, "caseNotes", "BMI 31, no contraindications",
                        "items", List.of(Map.of("drugId", drugId, "requestedSkuId", skuId))))
                .post("/v1/requests")
                .then().statusCode(201)
                .body("success", equalTo(true))
                .body("memberId", equalTo(memberId))
                .body("itemCount", equalTo(1))
                .body("message", equalTo("Request queued successfully with 1 item(s)"))
                .extract().path("requestId");
        String itemId = as(platform, key).get("/v1/requests/" + requestId)
                .then().statusCode(200).body("status", equalTo("pending")).extract().path("lineItems[0].itemId");

        ops(platform).body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + requestId + "/claim")
                .then().statusCode(200).body("request.prescriberId", equalTo(prescriberId));
        ops(platform).body(Map.of("prescriberId", prescriberId, "prescription", Map.of(
                        "quantity", 1, "quantityUnits", "vial", "daysSupply", 28, "directions", "Inject 0.25 mg weekly",
                        "refills", 2, "dispenseAsWritten", false, "clinicalDose", Map.of("value", 0.25, "unit", "mg"))))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve")
                .then().statusCode(200)
                .body("request.status", equalTo("approved"))
                .body("prescriptionRecord.status", equalTo("issued"));

        JsonPath detail = as(platform, key).get("/v1/requests/" + requestId).then().statusCode(200).extract().jsonPath();
        assertEquals("approved", detail.getString("status"));
        assertEquals("1 drug - 1 approved", detail.getString("statusSummary"));
        assertEquals("Grace Hopper", detail.getString("memberName"));
        assertEquals(memberId, detail.getString("member.id"));
        assertEquals(null, (Object) detail.get("member.partnerId"));
        assertEquals("provider-local", detail.getString("providerId"));
        assertEquals("BMI 31, no contraindications", detail.getString("caseNotes"));
        assertEquals(drugId, detail.getString("drugId"));
        assertEquals("Semaglutide E2E", detail.getString("prescriptionName"));
        assertEquals("sandbox", detail.getString("pharmacyId"));
        assertEquals(null, (Object) detail.get("drug.pharmacy"));
        assertEquals("approved", detail.getString("lineItems[0].status"));
        assertEquals(prescriberId, detail.getString("lineItems[0].prescriberId"));
        assertEquals(false, detail.getBoolean("lineItems[0].pharmacySent"));
        assertEquals("2.5 mg/mL vial", detail.getString("lineItems[0].prescription.dosage"));
        assertEquals(28, detail.getInt("lineItems[0].prescription.daysSupply"));
        assertEquals("Inject 0.25 mg weekly", detail.getString("lineItems[0].prescription.directions"));
        assertEquals(List.of("created", "approved"), detail.getList("lineItems[0].history.action"));
        assertEquals(List.of("api", prescriberId), detail.getList("lineItems[0].history.by"));
        assertEquals(List.of("created", "claimed", "approved"), detail.getList("history.action"));
        Map<String, Object> record = detail.getMap("prescriptionRecords[0]");
        assertEquals(record, detail.getMap("lineItems[0].prescriptionRecord"));
        assertEquals("issued", record.get("status"));
        assertEquals("Semaglutide E2E", record.get("drugName"));
        assertEquals("2.5 mg/mL vial", record.get("selectedSku"));
        assertEquals(skuId, record.get("selectedSkuId"));
        assertEquals(Map.of("value", 2.5f, "activeUnit", "mg", "baseUnit", "mL"), record.get("concentration"));
        assertEquals(2, record.get("packageSize"));
        assertEquals(0.1f, record.get("volumeMl"));
        assertEquals("non-controlled", record.get("classification"));
        assertEquals(requestId, record.get("requestId"));
        assertEquals(itemId, record.get("lineItemId"));
        assertEquals(memberId, record.get("memberId"));
        assertTrue(((String) record.get("issuedAt")).matches(TIMESTAMP));

        List<JsonNode> events = TopicReader.jsons(TopicReader.readKey(platform.infrastructure().kafka().bootstrapServers(), "care.events", requestId, 2, Duration.ofSeconds(30)));
        assertEquals(List.of("item.approved", "request.all_approved"), events.stream().map(e -> e.get("type").asText()).toList());
        JsonNode approved = events.get(0).get("webhook");
        assertPayload(ordered("event", "item.approved", "requestId", requestId, "itemId", itemId, "status", "approved",
                "patientName", "Grace Hopper", "prescriptionName", "Semaglutide E2E", "timestamp", approved.get("timestamp").asText()), approved);
        JsonNode aggregate = events.get(1).get("webhook");
        assertPayload(ordered("event", "request.all_approved", "requestId", requestId, "status", "all_approved",
                "patientName", "Grace Hopper", "prescriptionName", drugId, "timestamp", aggregate.get("timestamp").asText()), aggregate);
        assertTrue(approved.get("timestamp").asText().matches(TIMESTAMP));
        for (JsonNode envelope : events) {
            assertEquals(requestId, envelope.at("/subject/requestId").asText());
            assertEquals(memberId, envelope.at("/subject/memberId").asText());
            assertEquals(prescriberId, envelope.at("/subject/prescriberId").asText());
            assertTrue(envelope.get("partnerId").asText().length() > 0);
        }

        // The member side now comes from requests-service: the summary, and delete refused.
        as(platform, key).get("/v1/members/" + memberId).then().statusCode(200)
                .body("requests", hasSize(1))
                .body("requests[0].id", equalTo(requestId))
                .body("requests[0].drugId", equalTo(drugId))
                .body("requests[0].prescriptionName", equalTo("Semaglutide E2E"))
                .body("requests[0].status", equalTo("approved"))
                .body("requests[0].createdAt", matchesPattern(TIMESTAMP));
        as(platform, key).delete("/v1/members/" + memberId).then().statusCode(400)
                .body("error", equalTo("Cannot delete member with existing requests. Consider updating the member instead."));

        // Another partner sees nothing of it.
        String otherKey = apiKey(platform);
        as(platform, otherKey).get("/v1/requests/" + requestId).then().statusCode(404).body("error", equalTo("Request not found"));
        as(platform, otherKey).get("/v1/requests").then().statusCode(200).body("requests", equalTo(List.of()));
    }

    @Test
    void consultationRequestApprovedAtRequestLevelEmitsTheLegacyEvent(RunningPlatform.Handle platform) {
        String key = apiKey(platform);
        String drugId = "sema-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        String skuId = drug(platform, drugId);
        String prescriberId = prescriber(platform);
        String requestId = as(platform, key).contentType(ContentType.JSON).body("""
                        {"caseNotes": "Wants to discuss options",
                         "member": {"firstName": "Alan", "lastName": "Turing", "email": "alan.%s@example.com",
                                    "dateOfBirth": "1912-06-23", "state": "NY", "gender": "m",
                                    "address": {"street1": "2 Main St", "city": "Albany", "state": "NY", "zipCode": "12207"}}}"""
                        .formatted(UUID.randomUUID()))
                .post("/v1/requests")
                .then().statusCode(201)
                .body("itemCount", equalTo(0))
                .body("message", equalTo("Consultation request created successfully"))
                .extract().path("requestId");
        as(platform, key).get("/v1/requests/" + requestId).then().statusCode(200)
                .body("lineItems", equalTo(List.of()))
                .body("statusSummary", equalTo("No items"))
                .body("prescriptionRecord", nullValue());

        ops(platform).body(Map.of("prescriberId", prescriberId, "drugId", drugId, "prescription", Map.of(
                        "skuId", skuId, "quantity", "1 vial", "daysSupply", 30, "directions", "As directed", "refills", 0,
                        "dispenseAsWritten", true)))
                .post("/ops/v1/requests/" + requestId + "/approve")
                .then().statusCode(200).body("request.status", equalTo("approved"));

        as(platform, key).get("/v1/requests/" + requestId).then().statusCode(200)
                .body("itemCount", equalTo(1))
                .body("lineItems[0].status", equalTo("approved"))
                .body("lineItems[0].prescription.quantity", equalTo("1 vial"))
                .body("prescriptionRecords", hasSize(1));
        List<JsonNode> events = TopicReader.jsons(TopicReader.readKey(platform.infrastructure().kafka().bootstrapServers(), "care.events", requestId, 1, Duration.ofSeconds(30)));
        JsonNode webhook = events.get(0).get("webhook");
        assertPayload(ordered("event", "request.approved", "requestId", requestId, "status", "approved",
                "patientName", "Alan Turing", "prescriptionName", "Semaglutide E2E", "timestamp", webhook.get("timestamp").asText()), webhook);
    }

    /** The exact payload: same keys in the same order, same values. */
    private static void assertPayload(Map<String, Object> expected, JsonNode actual) {
        Map<?, ?> actualMap = JSON.convertValue(actual, LinkedHashMap.class);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(actualMap.keySet()));
        assertEquals(expected, actualMap);
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}

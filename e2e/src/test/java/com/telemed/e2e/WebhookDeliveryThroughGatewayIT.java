package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Approving an item through the operator API makes {@code item.approved} and
 * {@code request.all_approved} arrive at the partner's receiver (a real HTTP server on loopback),
 * signed with the partner's secret, with exactly the contract's payloads. Every service is real:
 * requests-service's outbox, Kafka, webhook-service's intake, store and dispatcher.
 */
@ExtendWith(RunningPlatform.class)
class WebhookDeliveryThroughGatewayIT {


    @Test
    void anApprovalArrivesSignedWithItsAggregate(RunningPlatform.Handle platform) throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            RequestSpecification ops = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .contentType(ContentType.JSON);
            JsonPath partner = ops.body(Map.of("name", "Webhook E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = partner.getString("partner.id");
            String apiKey = partner.getString("apiKey");
            String url = receiver.url();
            String secret = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .contentType(ContentType.JSON).body(Map.of("url", url))
                    .put("/ops/v1/partners/" + partnerId + "/webhook")
                    .then().statusCode(200).body("url", equalTo(url)).body("secret", matchesPattern("[0-9a-f]{64}"))
                    .extract().path("secret");

            String drugId = "wh-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                    .body("""
                            {"name": "Sildenafil E2E", "classification": "non-controlled",
                             "skus": [{"label": "50 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                    .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
            String prescriberId = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .contentType(ContentType.JSON)
                    .body(Map.of("name", "Dr Webb", "email", "webb." + UUID.randomUUID() + "@clinic.example"))
                    .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
            String requestId = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey)
                    .contentType(ContentType.JSON).body("""
                            {"caseNotes": "e2e", "items": [{"drugId": "%s", "dosage": "50 mg"}],
                             "member": {"firstName": "Mary", "lastName": "Jackson", "email": "mary.%s@example.com",
                                        "dateOfBirth": "1921-04-09", "state": "VA",
                                        "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}}"""
                            .formatted(drugId, UUID.randomUUID()))
                    .post("/v1/requests").then().statusCode(201).extract().path("requestId");
            String itemId = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey)
                    .get("/v1/requests/" + requestId).then().statusCode(200).extract().path("lineItems[0].itemId");

            given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                    .body(Map.of("prescriberId", prescriberId, "prescription", Map.of("quantity", 8, "daysSupply", 30,
                            "directions", "One before activity", "refills", 3, "dispenseAsWritten", false)))
                    .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve")
                    .then().statusCode(200);

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> receiver.received().size() >= 2);
            // And no third within a second.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> receiver.received().size() == 2);
            List<Received> received = receiver.received();
            assertEquals(2, received.size(), "deliveries received");

            Map<String, Received> byEvent = new LinkedHashMap<>();
            for (Received delivery : received) {
                byEvent.put(delivery.json().get("event").asText(), delivery);
                WebhookReceiver.assertSigned(delivery, secret);
            }
            assertEquals(List.of("item.approved", "request.all_approved"), byEvent.keySet().stream().sorted().toList());
            assertPayload(byEvent.get("item.approved").json(), "event", "item.approved", "requestId", requestId,
                    "itemId", itemId, "status", "approved", "patientName", "Mary Jackson", "prescriptionName", "Sildenafil E2E");
            assertPayload(byEvent.get("request.all_approved").json(), "event", "request.all_approved", "requestId", requestId,
                    "status", "all_approved", "patientName", "Mary Jackson", "prescriptionName", drugId);
            assertTrue(!byEvent.get("item.approved").headers().get("x-webhook-id")
                    .equals(byEvent.get("request.all_approved").headers().get("x-webhook-id")));

            // The operator's delivery log shows both, delivered at the first attempt.
            List<Map<String, Object>> log = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .get("/ops/v1/partners/" + partnerId + "/webhook/deliveries")
                    .then().statusCode(200).extract().path("deliveries");
            assertEquals(2, log.size());
            for (Map<String, Object> entry : log) {
                assertEquals("delivered", entry.get("status"));
                assertEquals(1, ((List<?>) entry.get("attempts")).size());
            }
        }
    }

}

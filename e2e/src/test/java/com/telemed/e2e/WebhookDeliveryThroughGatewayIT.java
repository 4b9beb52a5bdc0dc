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

            OneApproval approval = OneApproval.make(platform, apiKey, "wh", "Dr Webb");
            String drugId = approval.drugId();
            String requestId = approval.requestId();
            String itemId = approval.itemId();

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

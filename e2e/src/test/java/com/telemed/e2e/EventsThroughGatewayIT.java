package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Events through the gateway (partner-extensions.md, Events; issue #42): the partner's API key reaches
 * webhook-service's {@code /v1/events} and {@code /v1/webhooks/test}; an approval's two webhooks are
 * listed with the ids and bodies the receiver got, in order, delivered; one is redelivered with the same
 * id; the test webhook arrives signed and is listed; one whose first attempt failed is redelivered while it waits
 * for its retry, and arrives again signed afresh, without the old round's retry after it. Every service is real.
 */
@ExtendWith(RunningPlatform.class)
class EventsThroughGatewayIT {

    @Test
    void theEventsOfAnApprovalAndATestWebhookAreReadRedeliveredAndListed(RunningPlatform.Handle platform) throws Exception {
        // Set before the story's second test webhook: its first attempt answers 500 (the delivery waits for its retry).
        AtomicBoolean failNextTest = new AtomicBoolean();
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) ->
                "webhook.test".equals(post.event()) && failNextTest.getAndSet(false) ? 500 : 204)) {
            RequestSpecification ops = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .contentType(ContentType.JSON);
            JsonPath partner = ops.body(Map.of("name", "Events E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = partner.getString("partner.id");
            String apiKey = partner.getString("apiKey");
            RequestSpecification api = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey);

            given().baseUri(platform.gateway().toString()).get("/v1/events").then()
                    .statusCode(401).body(equalTo("{\"error\":\"API Key missing\"}"));
            api.get("/v1/events").then().statusCode(200).body(equalTo("{\"events\":[],\"nextCursor\":null,\"hasMore\":false}"));
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).post("/v1/webhooks/test").then()
                    .statusCode(409).body(equalTo("{\"error\":\"No webhook URL configured\"}"));

            String secret = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .contentType(ContentType.JSON).body(Map.of("url", receiver.url()))
                    .put("/ops/v1/partners/" + partnerId + "/webhook").then().statusCode(200).extract().path("secret");

            OneApproval.make(platform, apiKey, "ev", "Dr Evans");

            Received approved = receiver.await("item.approved", 1, Duration.ofSeconds(30)).get(0);
            Received aggregate = receiver.await("request.all_approved", 1, Duration.ofSeconds(30)).get(0);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() ->
                    given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/events").then()
                            .statusCode(200).extract().jsonPath().getList("events.delivery.status").equals(List.of("delivered", "delivered")));

            JsonPath page = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/events")
                    .then().statusCode(200).extract().jsonPath();
            List<String> ids = page.getList("events.id");
            assertEquals(2, ids.size());
            assertEquals(List.of(approved.headers().get("x-webhook-id"), aggregate.headers().get("x-webhook-id")).stream().sorted().toList(),
                    ids.stream().sorted().toList(), "the ids are the webhooks' X-Webhook-Id");
            assertEquals(ids.get(1), page.getString("nextCursor"));
            assertEquals(false, page.getBoolean("hasMore"));
            // data is the body as sent, byte for byte.
            String approvedId = approved.headers().get("x-webhook-id");
            String one = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/events/" + approvedId)
                    .then().statusCode(200).body("event.type", equalTo("item.approved"))
                    .body("event.delivery.attempts", equalTo(1)).extract().asString();
            assertTrue(one.contains("\"data\":" + new String(approved.body(), StandardCharsets.UTF_8) + ",\"delivery\":"), one);
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("types", "request.all_approved")
                    .get("/v1/events").then().statusCode(200).body("events.id", equalTo(List.of(aggregate.headers().get("x-webhook-id"))));
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("after", UUID.randomUUID().toString())
                    .get("/v1/events").then().statusCode(400).body(equalTo("{\"error\":\"Unknown cursor\"}"));
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/events/" + UUID.randomUUID())
                    .then().statusCode(404).body(equalTo("{\"error\":\"Event not found\"}"));

            // Redelivered: the same id and body, newly signed.
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).post("/v1/events/" + approvedId + "/redeliver")
                    .then().statusCode(202).body(equalTo("{\"eventId\":\"" + approvedId + "\"}"));
            Received again = receiver.await("item.approved", 2, Duration.ofSeconds(15)).get(1);
            assertEquals(approvedId, again.headers().get("x-webhook-id"));
            assertEquals(new String(approved.body(), StandardCharsets.UTF_8), new String(again.body(), StandardCharsets.UTF_8));
            WebhookReceiver.assertSigned(again, secret);

            // The test webhook: signed, its id answered, listed after the approval's events.
            String testId = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).post("/v1/webhooks/test")
                    .then().statusCode(202).extract().path("eventId");
            Received test = receiver.await("webhook.test", 1, Duration.ofSeconds(15)).get(0);
            assertEquals(testId, test.headers().get("x-webhook-id"));
            WebhookReceiver.assertSigned(test, secret);
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("after", ids.get(1))
                    .get("/v1/events").then().statusCode(200).body("events.id", equalTo(List.of(testId)))
                    .body("events[0].type", equalTo("webhook.test"));

            // Redelivered while waiting for its retry (its first attempt answered 500, the retry due 2 s later): sent
            // again in a new round, signed afresh (with the secret rotated meanwhile), then delivered; the old round's
            // retry is not sent after it (at most before it, had it fallen due first on a slow machine).
            failNextTest.set(true);
            String retriedId = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).post("/v1/webhooks/test")
                    .then().statusCode(202).extract().path("eventId");
            assertEquals(retriedId, receiver.await("webhook.test", 2, Duration.ofSeconds(15)).get(1).headers().get("x-webhook-id"));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() ->
                    given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/events/" + retriedId)
                            .then().statusCode(200).extract().jsonPath().getInt("event.delivery.attempts") == 1);
            String rotated = given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey())
                    .post("/ops/v1/partners/" + partnerId + "/webhook/secret/rotate").then().statusCode(200).extract().path("secret");
            given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).post("/v1/events/" + retriedId + "/redeliver")
                    .then().statusCode(202).body(equalTo("{\"eventId\":\"" + retriedId + "\"}"));
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).until(() ->
                    "delivered".equals(given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey)
                            .get("/v1/events/" + retriedId).then().statusCode(200).extract().path("event.delivery.status")));
            // Longer than the old round's retry wait (2 s): nothing more arrives.
            int settled = receiver.ofEvent("webhook.test").size();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> receiver.ofEvent("webhook.test").size() == settled);
            List<Received> sends = receiver.ofEvent("webhook.test").stream()
                    .filter(post -> retriedId.equals(post.headers().get("x-webhook-id"))).toList();
            assertTrue(sends.size() == 2 || sends.size() == 3, sends.size() + " sends");
            WebhookReceiver.assertSigned(sends.get(sends.size() - 1), rotated);
            assertEquals(sends.size(), given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey)
                    .get("/v1/events/" + retriedId).then().statusCode(200).extract().jsonPath().getInt("event.delivery.attempts"));
        }
    }
}

package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sandbox simulation (issue #42; partner-extensions.md, "Sandbox simulation"), through the gateway as
 * a partner drives it: each simulated action makes exactly the real step's webhooks arrive at the
 * partner's receiver (signed, held to the partner document), and the autopilot ({@code simulation} on
 * a create) finishes its plan across a restart of requests-service mid-flow, each step once.
 *
 * <p>On the platform the test JVM shares, as WebhookRestartIT: {@link Platform#startAgain} returns
 * once requests-service is ready again on its port; the {@code finally} starts it again if the test
 * failed while it was stopped.
 */
@ExtendWith(RunningPlatform.class)
class SandboxSimulationIT {

    private static final String PATIENT = "Mary Jackson";
    private static final String DRUG = "Sildenafil Sandbox E2E";

    private RunningPlatform.Handle platform;
    private String apiKey;
    private String secret;
    private String drugId;
    private String memberId;

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner() {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).contentType(ContentType.JSON);
    }

    /** A partner whose webhook goes to the receiver, a drug with one SKU, and a member. */
    private void sandboxPartner(WebhookReceiver receiver) {
        JsonPath created = ops().body(Map.of("name", "Sandbox E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
        apiKey = created.getString("apiKey");
        secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + created.getString("partner.id") + "/webhook")
                .then().statusCode(200).extract().path("secret");
        drugId = "sbx-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body("""
                        {"name": "%s", "classification": "non-controlled",
                         "skus": [{"label": "50 mg", "active": true}], "pharmacy": {"id": "pharmacy-a", "method": "integration_a"}}"""
                        .formatted(DRUG))
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        memberId = partner().body("""
                        {"firstName": "Mary", "lastName": "Jackson", "email": "mary.%s@example.com",
                         "dateOfBirth": "1921-04-09", "state": "VA",
                         "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}"""
                        .formatted(UUID.randomUUID()))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
    }

    private String request() {
        return partner().body(Map.of("memberId", memberId, "caseNotes", "sandbox e2e", "items", List.of(Map.of("drugId", drugId))))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
    }

    private JsonPath simulate(String requestId, Map<String, Object> body) {
        return partner().body(body).post("/v1/sandbox/requests/" + requestId + "/simulate").then().statusCode(200)
                .body("request.id", equalTo(requestId)).extract().jsonPath();
    }

    /** The one POST of {@code event} for the request (or the member, for messages); its body, its signature checked. */
    private JsonNode single(WebhookReceiver receiver, String event, String requestId) throws Exception {
        List<Received> posts = receiver.await(event, 1, Duration.ofSeconds(30)).stream()
                .filter(post -> requestId == null || requestId.equals(post.json().path("requestId").asText())).toList();
        assertEquals(1, posts.size(), event + " for " + requestId);
        WebhookReceiver.assertSigned(posts.get(0), secret);
        return posts.get(0).json();
    }

    /**
     * The events the receiver got for the request, sorted by name, once nothing more came for two seconds: webhooks
     * are sent concurrently and may arrive in any order (partner-api.md promises none), so a step's events are
     * compared as a set of names, each the number of times it came.
     */
    private static List<String> eventsOf(WebhookReceiver receiver, String requestId, int expected) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> ofRequest(receiver, requestId).size() >= expected);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> ofRequest(receiver, requestId).size() == expected);
        return sorted(ofRequest(receiver, requestId));
    }

    private static List<String> sorted(List<String> events) {
        return events.stream().sorted().toList();
    }

    private static List<String> ofRequest(WebhookReceiver receiver, String requestId) {
        return receiver.received().stream().filter(post -> requestId.equals(post.json().path("requestId").asText()))
                .map(Received::event).toList();
    }

    @Test
    void eachSimulatedActionSendsExactlyTheRealStepsWebhooks(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            sandboxPartner(receiver);

            // approve, ship, deliver: the sandbox prescriber, then the pharmacy.
            String approved = request();
            String itemId = simulate(approved, Map.of("action", "approve")).getString("request.lineItems[0].itemId");
            assertEquals(sorted(List.of("item.approved", "request.all_approved")), eventsOf(receiver, approved, 2));
            assertPayload(single(receiver, "item.approved", approved), "event", "item.approved", "requestId", approved,
                    "itemId", itemId, "status", "approved", "patientName", PATIENT, "prescriptionName", DRUG);
            assertPayload(single(receiver, "request.all_approved", approved), "event", "request.all_approved", "requestId", approved,
                    "status", "all_approved", "patientName", PATIENT, "prescriptionName", drugId);
            simulate(approved, Map.of("action", "ship", "trackingNumber", "1Z999AA10123456784", "shipCarrier", "UPS"));
            assertEquals(sorted(List.of("item.approved", "request.all_approved", "item.shipped")), eventsOf(receiver, approved, 3));
            assertPayload(single(receiver, "item.shipped", approved), "event", "item.shipped", "requestId", approved,
                    "memberId", memberId, "itemId", itemId, "status", "shipped", "trackingNumber", "1Z999AA10123456784",
                    "shipCarrier", "UPS", "daysSupply", 30);
            simulate(approved, Map.of("action", "deliver"));
            assertEquals(sorted(List.of("item.approved", "request.all_approved", "item.shipped", "delivery.update")),
                    eventsOf(receiver, approved, 4));
            assertPayload(single(receiver, "delivery.update", approved), "event", "delivery.update", "requestId", approved,
                    "memberId", memberId, "itemId", itemId, "status", "delivered", "trackingNumber", "1Z999AA10123456784",
                    "shipCarrier", "UPS", "daysSupply", 30);

            // deny, the reason kept.
            String denied = request();
            simulate(denied, Map.of("action", "deny", "reason", "Not a candidate"));
            assertEquals(sorted(List.of("item.denied", "request.all_denied")), eventsOf(receiver, denied, 2));
            partner().get("/v1/requests/" + denied).then().statusCode(200)
                    .body("lineItems[0].history[1].reason", equalTo("Not a candidate"));

            // request_consultation, book, complete_consultation (no webhook), approve.
            String consulted = request();
            simulate(consulted, Map.of("action", "request_consultation"));
            assertEquals(sorted(List.of("item.consultation_requested", "appointment.consultation_requested")), 
                    eventsOf(receiver, consulted, 2));
            simulate(consulted, Map.of("action", "book"));
            assertEquals(sorted(List.of("item.consultation_requested", "appointment.consultation_requested", "appointment.booked")), 
                    eventsOf(receiver, consulted, 3));
            JsonNode booked = single(receiver, "appointment.booked", consulted);
            assertEquals("Sandbox Prescriber", booked.path("prescriberName").asText());
            assertEquals(15, booked.path("durationMinutes").asInt());
            simulate(consulted, Map.of("action", "complete_consultation"));
            partner().get("/v1/requests/" + consulted).then().body("lineItems[0].status", equalTo("pending"));
            assertEquals(3, eventsOf(receiver, consulted, 3).size());
            simulate(consulted, Map.of("action", "approve"));
            assertEquals(sorted(List.of("item.consultation_requested", "appointment.consultation_requested", "appointment.booked",
                    "item.approved", "request.all_approved")), eventsOf(receiver, consulted, 5));

            // prescriber_message: through messaging-service, message.new.
            simulate(approved, Map.of("action", "prescriber_message", "text", "How are you feeling?"));
            Received message = receiver.await("message.new", 1, Duration.ofSeconds(30)).get(0);
            WebhookReceiver.assertSigned(message, secret);
            assertPayload(message.json(), "event", "message.new", "memberId", memberId, "prescriberName", "Sandbox Prescriber",
                    "messagePreview", "How are you feeling?", "conversationId", message.json().path("conversationId").asText());
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> receiver.ofEvent("message.new").size() == 1);

            // The errors, through the gateway.
            partner().body(Map.of("action", "deliver")).post("/v1/sandbox/requests/" + denied + "/simulate").then().statusCode(409)
                    .body("error", equalTo("Cannot deliver item in status denied"));
            partner().body(Map.of("action", "launch")).post("/v1/sandbox/requests/" + denied + "/simulate").then().statusCode(400)
                    .body("error[0].code", equalTo("invalid_enum_value")).body("error[0].path", equalTo(List.of("action")));
            partner().body(Map.of("action", "approve")).post("/v1/sandbox/requests/" + UUID.randomUUID() + "/simulate")
                    .then().statusCode(404).body("error", equalTo("Request not found"));
            // 11 webhooks for the three requests, 1 message: nothing else arrived.
            assertEquals(12, receiver.received().size());
        }
    }

    @Test
    void theAutopilotFinishesItsPlanAcrossARestartOfRequestsService(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        Platform services = platform.platform();
        boolean stopped = false;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            sandboxPartner(receiver);
            String requestId = partner().body(Map.of("memberId", memberId, "caseNotes", "sandbox autopilot e2e",
                            "items", List.of(Map.of("drugId", drugId)),
                            "simulation", Map.of("outcome", "consultation", "afterSeconds", 1, "ship", true)))
                    .post("/v1/requests").then().statusCode(201).extract().path("requestId");

            // Mid-flow: the first step's webhooks are out, five steps to go.
            receiver.await("appointment.consultation_requested", 1, Duration.ofSeconds(60));
            stopped = true;
            assertEquals(143, services.stop(PlatformService.REQUESTS), "requests-service's exit on SIGTERM");
            services.startAgain(PlatformService.REQUESTS);
            stopped = false;

            assertEquals(sorted(List.of("item.consultation_requested", "appointment.consultation_requested", "appointment.booked",
                    "item.approved", "request.all_approved", "item.shipped", "delivery.update")), eventsOf(receiver, requestId, 7));
            partner().get("/v1/requests/" + requestId).then().statusCode(200)
                    .body("lineItems[0].status", equalTo("approved"))
                    .body("lineItems[0].deliveryStatus", equalTo("delivered"))
                    .body("lineItems[0].trackingNumber", matchesPattern("^SBX[0-9A-Z]{12}$"));
        } finally {
            if (stopped) {
                services.startAgain(PlatformService.REQUESTS);
            }
        }
    }
}

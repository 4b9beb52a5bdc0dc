package com.telemed.requests.simulation;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.simulation.SandboxFixtures.action;
import static com.telemed.requests.simulation.SandboxFixtures.events;
import static com.telemed.requests.simulation.SandboxFixtures.sandboxPrescriber;
import static com.telemed.requests.simulation.SandboxFixtures.simulate;
import static com.telemed.requests.simulation.SandboxFixtures.types;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static com.telemed.testkit.quarkus.ServiceDatabase.update;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/sandbox/requests/:id/simulate} (partner-extensions.md, "Sandbox simulation"): each
 * action's change of the request, the exact events it puts on {@code care.events} (those of the real
 * actor's step), and each error.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SandboxSimulationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";

    @Inject
    FakeNeighbours neighbours;

    SandboxFixtures sandbox;

    @BeforeEach
    void partner() {
        neighbours.reset();
        sandbox = SandboxFixtures.create(neighbours);
    }

    @AfterEach
    void heal() {
        neighbours.reset();
    }

    @Test
    void approveSignsWithTheSkusDefaultsThenShipAndDeliverAsThePharmacy() {
        String requestId = sandbox.request();
        JsonPath approved = sandbox.simulate(requestId, action("approve")).then().statusCode(200)
                .body("request.id", equalTo(requestId))
                .body("request.status", equalTo("approved"))
                .body("request.lineItems[0].status", equalTo("approved"))
                .body("request.lineItems[0].prescriberId", equalTo(sandboxPrescriber()))
                .body("request.lineItems[0].prescription.daysSupply", equalTo(30))
                .body("request.lineItems[0].prescription.quantity", equalTo(1))
                .body("request.lineItems[0].prescription.refills", equalTo(0))
                .body("request.lineItems[0].prescription.directions", equalTo("Use as directed (sandbox simulation)"))
                .body("request.lineItems[0].prescription.dosage", equalTo("0.25mg"))
                .extract().jsonPath();
        String itemId = approved.getString("request.lineItems[0].itemId");
        // The answer is the partner's own read, after the step committed.
        assertEquals(RequestFixtures.get(sandbox.partner(), requestId).then().extract().jsonPath().getMap("lineItems[0].prescription"),
                approved.getMap("request.lineItems[0].prescription"));

        sandbox.simulate(requestId, action("ship", "trackingNumber", "1Z999", "shipCarrier", "UPS")).then().statusCode(200)
                .body("request.lineItems[0].pharmacySent", equalTo(true))
                .body("request.lineItems[0].deliveryStatus", equalTo("shipped"))
                .body("request.lineItems[0].trackingNumber", equalTo("1Z999"))
                .body("request.lineItems[0].shipCarrier", equalTo("UPS"));
        sandbox.simulate(requestId, action("deliver")).then().statusCode(200)
                .body("request.lineItems[0].status", equalTo("approved"))
                .body("request.lineItems[0].deliveryStatus", equalTo("delivered"));

        List<JsonNode> events = events(requestId, 4);
        assertEquals(List.of("item.approved", "request.all_approved", "item.shipped", "delivery.update"), types(events));
        assertEquals(JSON.valueToTree(delivery("item.shipped", requestId, itemId, "shipped", events.get(2))), events.get(2).get("webhook"));
        assertEquals(JSON.valueToTree(delivery("delivery.update", requestId, itemId, "delivered", events.get(3))), events.get(3).get("webhook"));
        assertEquals("approved", events.get(0).path("webhook").path("status").asText());
        assertEquals(sandboxPrescriber(), events.get(0).path("data").path("prescriberId").asText());
    }

    private Map<String, Object> delivery(String event, String requestId, String itemId, String status, JsonNode envelope) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("event", event);
        payload.put("requestId", requestId);
        payload.put("memberId", sandbox.memberId());
        payload.put("itemId", itemId);
        payload.put("status", status);
        payload.put("trackingNumber", "1Z999");
        payload.put("shipCarrier", "UPS");
        payload.put("daysSupply", 30);
        String timestamp = envelope.path("webhook").path("timestamp").asText();
        assertEquals(true, timestamp.matches(TIMESTAMP), timestamp);
        payload.put("timestamp", timestamp);
        return payload;
    }

    @Test
    void shipWithoutTrackingGeneratesOne() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("approve")).then().statusCode(200);
        sandbox.simulate(requestId, action("ship")).then().statusCode(200)
                .body("request.lineItems[0].trackingNumber", matchesPattern("^SBX[0-9A-Z]{12}$"))
                .body("request.lineItems[0].shipCarrier", equalTo("USPS"));
        // Shipped once: a second ship is refused, with nothing sent.
        sandbox.simulate(requestId, action("ship")).then().statusCode(409)
                .body("", equalTo(error("Cannot ship item in status approved")));
        assertEquals(List.of("item.approved", "request.all_approved", "item.shipped"), types(events(requestId, 3)));
    }

    @Test
    void denyKeepsTheReason() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("deny", "reason", "Not a candidate")).then().statusCode(200)
                .body("request.status", equalTo("denied"))
                .body("request.lineItems[0].status", equalTo("denied"))
                .body("request.lineItems[0].history[1].action", equalTo("denied"))
                .body("request.lineItems[0].history[1].reason", equalTo("Not a candidate"))
                .body("request.lineItems[0].history[1].by", equalTo(sandboxPrescriber()));
        assertEquals(List.of("item.denied", "request.all_denied"), types(events(requestId, 2)));
    }

    @Test
    void theConsultationFlowBooksTheNextOpenSlotAndEndsPendingAgain() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("request_consultation")).then().statusCode(200)
                .body("request.lineItems[0].status", equalTo("call_requested"));
        sandbox.simulate(requestId, action("book")).then().statusCode(200)
                .body("request.lineItems[0].status", equalTo("call_requested"));
        // Booked once: the link is used.
        sandbox.simulate(requestId, action("book")).then().statusCode(409)
                .body("", equalTo(error("Cannot book item in status call_requested")));
        sandbox.simulate(requestId, action("complete_consultation")).then().statusCode(200)
                .body("request.lineItems[0].status", equalTo("pending"));
        sandbox.simulate(requestId, action("approve")).then().statusCode(200)
                .body("request.lineItems[0].status", equalTo("approved"));

        List<JsonNode> events = events(requestId, 5);
        assertEquals(List.of("item.consultation_requested", "appointment.consultation_requested", "appointment.booked",
                "item.approved", "request.all_approved"), types(events));
        JsonNode booked = events.get(2).get("webhook");
        // The next open slot of the sandbox prescriber: every day, all day, in 15 minutes (UTC).
        assertEquals(15, booked.path("durationMinutes").asInt(), booked.toString());
        assertEquals("held", texts("SELECT status FROM appointments WHERE request_id = ?::uuid", requestId).get(0));
        // (then sent_to_pharmacy, when the dispatcher has transmitted the approval)
        assertEquals(List.of("created", "call_requested", "appointment_booked", "consult_held", "approved"),
                texts("SELECT action FROM history_entries WHERE request_id = ?::uuid ORDER BY at", requestId).subList(0, 5));
    }

    @Test
    void aPrescriberMessageGoesThroughMessagingServiceAsTheConsolesReply() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("prescriber_message", "text", "How are you feeling?")).then().statusCode(200)
                .body("request.id", equalTo(requestId));
        List<FakeNeighbour.Call> conversations = neighbours.calls("POST", "/v1/messages/conversations");
        assertEquals(1, conversations.size());
        assertEquals(Map.of("memberId", sandbox.memberId(), "prescriberId", sandboxPrescriber()), conversations.get(0).json().getMap());
        String conversation = UUID.nameUUIDFromBytes((sandbox.memberId() + "/" + sandboxPrescriber()).getBytes()).toString();
        List<FakeNeighbour.Call> messages = neighbours.calls("POST", "/ops/v1/conversations/" + conversation + "/prescriber-messages");
        assertEquals(1, messages.size());
        assertEquals(Map.of("text", "How are you feeling?"), messages.get(0).json().getMap());

        sandbox.simulate(requestId, action("prescriber_message")).then().statusCode(200);
        assertEquals(Map.of("text", "Hello from the sandbox prescriber. This message was simulated."),
                neighbours.calls("POST", "/ops/v1/conversations/" + conversation + "/prescriber-messages").get(1).json().getMap());
        // No care.events of its own: message.new is messaging-service's.
        assertEquals(List.of(), types(events(requestId, 0)));
    }

    @Test
    void aStepTheStateDoesNotAllowIs409WithTheItemsStatus() {
        String requestId = sandbox.request();
        for (String action : List.of("book", "complete_consultation", "ship", "deliver")) {
            sandbox.simulate(requestId, action(action)).then().statusCode(409)
                    .body("", equalTo(error("Cannot " + action + " item in status pending")));
        }
        sandbox.simulate(requestId, action("deny")).then().statusCode(200);
        for (String action : List.of("approve", "deny", "request_consultation", "book", "ship", "deliver")) {
            sandbox.simulate(requestId, action(action)).then().statusCode(409)
                    .body("", equalTo(error("Cannot " + action + " item in status denied")));
        }
        String cancelled = sandbox.request();
        RequestFixtures.get(sandbox.partner(), cancelled).then().statusCode(200);
        io.restassured.RestAssured.given().header("X-Partner-Id", sandbox.partner()).contentType("application/json").body("{}")
                .post("/v1/requests/" + cancelled + "/cancel").then().statusCode(200);
        sandbox.simulate(cancelled, action("approve")).then().statusCode(409)
                .body("", equalTo(error("Cannot approve item in status cancelled")));
        // A consultation request has no item to act on: its own status.
        String consultation = RequestFixtures.created(sandbox.partner(), RequestFixtures.consultation(sandbox.memberId()));
        sandbox.simulate(consultation, action("approve")).then().statusCode(409)
                .body("", equalTo(error("Cannot approve item in status pending")));
        assertEquals(List.of("item.denied", "request.all_denied"), types(events(requestId, 2)));
    }

    @Test
    void anUnknownActionIsAnIssueAndNothingHappens() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("launch")).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(issue("invalid_enum_value", List.of("action"),
                        "Invalid enum value. Expected 'approve' | 'deny' | 'request_consultation' | 'book' | 'complete_consultation'"
                                + " | 'ship' | 'deliver' | 'prescriber_message', received 'launch'",
                        "received", "launch", "options", List.of("approve", "deny", "request_consultation", "book",
                                "complete_consultation", "ship", "deliver", "prescriber_message"))))));
        simulate(sandbox.partner(), requestId, Map.of()).then().statusCode(400)
                .body("error[0].code", equalTo("invalid_type"))
                .body("error[0].path", equalTo(List.of("action")))
                .body("error[0].message", equalTo("Required"));
        simulate(sandbox.partner(), requestId, "{\"action\": ").then().statusCode(400).body("", equalTo(error("Invalid JSON")));
        RequestFixtures.get(sandbox.partner(), requestId).then().body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void anUnknownOrAnotherPartnersRequestIsNotFound() {
        String requestId = sandbox.request();
        for (String id : List.of(UUID.randomUUID().toString(), "not-a-uuid")) {
            sandbox.simulate(id, action("approve")).then().statusCode(404).body("", equalTo(error("Request not found")));
        }
        SandboxFixtures other = SandboxFixtures.create(neighbours);
        other.simulate(requestId, action("approve")).then().statusCode(404).body("", equalTo(error("Request not found")));
        sandbox.simulate(requestId, action("approve", "itemId", UUID.randomUUID().toString())).then().statusCode(404)
                .body("", equalTo(error("Line item not found")));
        RequestFixtures.get(sandbox.partner(), requestId).then().body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void withMoreThanOneLiveItemTheItemMustBeNamed() {
        String requestId = sandbox.request();
        // The partner API creates one item at most; a second, as a request of several items would have.
        update("""
                INSERT INTO line_items SELECT (jsonb_populate_record(NULL::line_items, to_jsonb(item)
                    || jsonb_build_object('id', gen_random_uuid(), 'position', 1))).*
                FROM line_items item WHERE request_id = ?::uuid""", requestId);
        update("UPDATE requests SET item_count = 2 WHERE id = ?::uuid", requestId);
        sandbox.simulate(requestId, action("deny")).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(issue("custom", List.of("itemId"),
                        "itemId is required when the request has more than one live item")))));
        String second = texts("SELECT id::text FROM line_items WHERE request_id = ?::uuid AND position = 1", requestId).get(0);
        sandbox.simulate(requestId, action("deny", "itemId", second)).then().statusCode(200)
                .body("request.lineItems[1].status", equalTo("denied"))
                .body("request.lineItems[0].status", equalTo("pending"));
        assertEquals(List.of("item.denied"), types(events(requestId, 1)));
    }

    @Test
    void theSandboxPrescriberIsOnePerDeploymentWithHoursAllWeek() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("deny")).then().statusCode(200);
        await().atMost(Duration.ofSeconds(5)).until(() -> !texts(
                "SELECT id::text FROM prescribers WHERE lower(email) = 'sandbox-prescriber@sandbox.invalid'").isEmpty());
        assertEquals(1, texts("SELECT id::text FROM prescribers WHERE lower(email) = 'sandbox-prescriber@sandbox.invalid'").size());
        assertEquals(List.of("UTC 15"), texts("SELECT timezone || ' ' || slot_minutes FROM prescriber_availability WHERE prescriber_id = ?::uuid",
                sandboxPrescriber()));
        assertEquals(List.of("1 0 1440", "2 0 1440", "3 0 1440", "4 0 1440", "5 0 1440", "6 0 1440", "7 0 1440"),
                texts("SELECT weekday || ' ' || start_minute || ' ' || end_minute FROM prescriber_weekly_hours"
                        + " WHERE prescriber_id = ?::uuid ORDER BY weekday", sandboxPrescriber()));
    }
}

package com.telemed.requests.appointment;

import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The appointment lifecycle of operations-api.md ("Consultations") and its events
 * (partner-api.md, "Appointment events"): book, reschedule, cancel, re-issue, book again, outcome,
 * then the prescriber's decision; and every refusal, which changes nothing.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class AppointmentLifecycleTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        MovableClock.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
    }

    @AfterEach
    void heal() {
        MovableClock.reset();
        neighbours.reset();
    }

    /** The prescriber asks for a consultation on the item; the booking link's token. */
    static String requestConsultation(PendingRequest pending) {
        String url = given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId()))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/request-consultation")
                .then().statusCode(200).extract().path("booking.bookingUrl");
        return url.substring(url.lastIndexOf('/') + 1);
    }

    static Response book(String token, Instant start, int minutes, String zone) {
        return given().contentType("application/json")
                .body(Map.of("startTime", start.toString(), "durationMinutes", minutes, "timezone", zone))
                .post("/ops/v1/bookings/" + token + "/appointment");
    }

    static Response call(String appointmentId, String action, Object body) {
        return given().contentType("application/json").body(body).post("/ops/v1/appointments/" + appointmentId + "/" + action);
    }

    static Instant inHours(long hours) {
        // A millisecond part that is never zero: Instant.toString() then writes it, as the wire format
        // always does (a whole second would print "...:41Z" against the answer's "...:41.000Z").
        return MovableClock.now().plus(Duration.ofHours(hours)).truncatedTo(ChronoUnit.SECONDS).plusMillis(123);
    }

    private String itemStatus() {
        return given().header("X-Partner-Id", pending.partner()).get("/v1/requests/" + pending.requestId())
                .then().statusCode(200).extract().path("lineItems[0].status");
    }

    private List<String> history() {
        return texts("SELECT action || ' ' || by_actor FROM history_entries WHERE item_id = ? ORDER BY id",
                UUID.fromString(pending.itemId()));
    }

    /** The request's appointment events on care.events, in order, after {@code skip} earlier events. */
    static List<JsonNode> appointmentEvents(String requestId, int total) {
        return TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC, requestId,
                        total, Duration.ofSeconds(30))).stream()
                .filter(envelope -> envelope.path("type").asText().startsWith("appointment."))
                .map(envelope -> envelope.get("webhook"))
                .toList();
    }

    private Map<String, Object> expected(String event, String appointmentId, JsonNode actual) {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("event", event);
        expected.put("requestId", pending.requestId());
        expected.put("memberId", pending.memberId());
        expected.put("appointmentId", appointmentId);
        expected.put("patientName", "Grace Hopper");
        expected.put("patientEmail", neighbours.member(pending.memberId()).getString("email"));
        expected.put("prescriberName", "Dr Lin");
        return expected;
    }

    private Map<String, Object> scheduled(String event, String appointmentId, Instant start, int minutes, String zone,
                                          JsonNode actual) {
        Map<String, Object> expected = expected(event, appointmentId, actual);
        expected.put("startTime", start.toString());
        expected.put("endTime", start.plus(Duration.ofMinutes(minutes)).toString());
        expected.put("timezone", zone);
        expected.put("durationMinutes", minutes);
        expected.put("timestamp", actual.path("timestamp").asText());
        return expected;
    }

    @Test
    void bookRescheduleCancelReissueBookAgainHoldAndApprove() {
        // Deferred: no transmission adds to the item's history after the approval.
        given().contentType("application/json").body("{\"mode\": \"deferred\"}")
                .put("/ops/v1/partners/" + pending.partner() + "/fulfilment").then().statusCode(200);
        String token = requestConsultation(pending);
        assertEquals("call_requested", itemStatus());
        Instant start = inHours(48);
        Response booked = book(token, start, 30, "America/New_York");
        booked.then().statusCode(201)
                .body("appointment.requestId", equalTo(pending.requestId()))
                .body("appointment.itemId", equalTo(pending.itemId()))
                .body("appointment.memberId", equalTo(pending.memberId()))
                .body("appointment.prescriberId", equalTo(pending.prescriberId()))
                .body("appointment.status", equalTo("booked"))
                .body("appointment.startTime", equalTo(start.toString()))
                .body("appointment.endTime", equalTo(start.plus(Duration.ofMinutes(30)).toString()))
                .body("appointment.durationMinutes", equalTo(30))
                .body("appointment.timezone", equalTo("America/New_York"))
                .body("appointment.cancelledBy", equalTo(null));
        String id = booked.path("appointment.id");
        given().get("/ops/v1/appointments/" + id).then().statusCode(200).body("appointment.id", equalTo(id))
                .body("appointment.status", equalTo("booked"));
        assertEquals("call_requested", itemStatus(), "booking leaves the consultation asked");

        Instant moved = inHours(72);
        call(id, "reschedule", Map.of("startTime", moved.toString(), "timezone", "Europe/London")).then().statusCode(200)
                .body("appointment.id", equalTo(id))
                .body("appointment.startTime", equalTo(moved.toString()))
                .body("appointment.durationMinutes", equalTo(30))
                .body("appointment.timezone", equalTo("Europe/London"));

        call(id, "cancel", Map.of("cancelledBy", "patient", "reason", "Feeling better")).then().statusCode(200)
                .body("appointment.status", equalTo("cancelled"))
                .body("appointment.cancelledBy", equalTo("patient"))
                .body("appointment.cancellationReason", equalTo("Feeling better"));
        assertEquals("pending", itemStatus(), "a cancelled appointment puts the item back to pending");

        String again = requestConsultation(pending);
        Instant second = inHours(50);
        String secondId = book(again, second, 45, "America/Chicago").then().statusCode(201).extract().path("appointment.id");
        call(secondId, "outcome", Map.of("outcome", "held")).then().statusCode(200).body("appointment.status", equalTo("held"));
        assertEquals("pending", itemStatus());

        given().contentType("application/json").body("""
                        {"prescriberId": "%s", "prescription": {"skuId": "%s", "quantity": 4, "daysSupply": 30,
                         "directions": "Inject weekly", "refills": 0, "dispenseAsWritten": false}}"""
                        .formatted(pending.prescriberId(), FakeNeighbours.skuId(pending.drugId(), 0)))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/approve")
                .then().statusCode(200);
        assertEquals("approved", itemStatus());
        String prescriber = pending.prescriberId();
        assertEquals(List.of("created api", "call_requested " + prescriber, "appointment_booked service",
                "appointment_rescheduled service", "appointment_cancelled service", "call_requested " + prescriber,
                "appointment_booked service", "consult_held " + prescriber, "approved " + prescriber), history());

        // item.consultation_requested + appointment.consultation_requested, twice; booked, rescheduled, cancelled,
        // booked; item.approved, request.all_approved: 10 events.
        List<JsonNode> events = appointmentEvents(pending.requestId(), 10);
        assertEquals(List.of("appointment.consultation_requested", "appointment.booked", "appointment.rescheduled",
                        "appointment.cancelled", "appointment.consultation_requested", "appointment.booked"),
                events.stream().map(event -> event.path("event").asText()).toList());
        for (JsonNode event : events) {
            assertTrue(event.path("timestamp").asText().matches(TIMESTAMP), event.toString());
        }
        assertEquals(JSON.valueToTree(scheduled("appointment.booked", id, start, 30, "America/New_York", events.get(1))),
                events.get(1));
        assertEquals(JSON.valueToTree(scheduled("appointment.rescheduled", id, moved, 30, "Europe/London", events.get(2))),
                events.get(2));
        Map<String, Object> cancelled = expected("appointment.cancelled", id, events.get(3));
        cancelled.put("cancelledBy", "patient");
        cancelled.put("cancellationReason", "Feeling better");
        cancelled.put("timestamp", events.get(3).path("timestamp").asText());
        assertEquals(JSON.valueToTree(cancelled), events.get(3));
        assertEquals(JSON.valueToTree(scheduled("appointment.booked", secondId, second, 45, "America/Chicago", events.get(5))),
                events.get(5));
    }

    /** Issue #40: each change is audited with its actor; a person's read too, the operator key's not. */
    @Test
    void aPersonsReadAndEveryChangeOfAnAppointmentAreAudited() {
        String id = book(requestConsultation(pending), inHours(40), 20, "UTC").then().statusCode(201).extract().path("appointment.id");
        given().get("/ops/v1/appointments/" + id).then().statusCode(200);
        String support = "acc_" + UUID.randomUUID();
        given().header(TestServiceProofs.PRINCIPAL_HEADER, TestServiceProofs.person(support, null, "support"))
                .get("/ops/v1/appointments/" + id).then().statusCode(200);
        call(id, "reschedule", Map.of("startTime", inHours(41).toString())).then().statusCode(200);
        call(id, "outcome", Map.of("outcome", "held")).then().statusCode(200);
        call(id, "outcome", Map.of("outcome", "held")).then().statusCode(409);
        String partner = " appointment " + id + " " + pending.partner();
        assertEquals(List.of("person " + support + " appointment.read" + partner,
                "operator_key service appointment.record_outcome" + partner,
                "operator_key service appointment.reschedule" + partner),
                texts("SELECT actor_type || ' ' || actor_id || ' ' || action || ' ' || target_type || ' ' || target_id || ' '"
                        + " || partner_id FROM audit_entries WHERE target_id = ? ORDER BY action", id));
    }

    @Test
    void aNoShowClearsTheConsultationWithItsHistoryAndAPrescribersCancelOmitsAMissingReason() {
        String id = book(requestConsultation(pending), inHours(30), 20, "UTC").then().statusCode(201).extract().path("appointment.id");
        call(id, "outcome", Map.of("outcome", "no_show")).then().statusCode(200).body("appointment.status", equalTo("no_show"));
        assertEquals("pending", itemStatus());
        assertEquals("consult_no_show " + pending.prescriberId(), history().get(history().size() - 1));
        call(id, "outcome", Map.of("outcome", "held")).then().statusCode(409)
                .body("error", equalTo("Appointment is no show, not booked"));

        // An hour later: a missed appointment keeps its time (only a cancelled one frees it, V19).
        String other = book(requestConsultation(pending), inHours(31), 20, "UTC").then().statusCode(201).extract().path("appointment.id");
        call(other, "cancel", Map.of("cancelledBy", "prescriber")).then().statusCode(200)
                .body("appointment.cancellationReason", equalTo(null));
        assertEquals("appointment_cancelled " + pending.prescriberId(), history().get(history().size() - 1));
        JsonNode cancelled = appointmentEvents(pending.requestId(), 7).get(4);
        assertEquals("appointment.cancelled", cancelled.path("event").asText());
        assertEquals("prescriber", cancelled.path("cancelledBy").asText());
        assertTrue(cancelled.path("cancellationReason").isMissingNode(), cancelled.toString());
        assertTrue(cancelled.path("startTime").isMissingNode(), cancelled.toString());
    }

    @Test
    void badLinksTimesZonesDurationsAndStatesAreRefusedAndChangeNothing() {
        String token = requestConsultation(pending);
        book("no-such-token", inHours(30), 30, "UTC").then().statusCode(404).body("error", equalTo("Booking link not found"));
        book(token, MovableClock.now().minusSeconds(60), 30, "UTC").then().statusCode(400)
                .body("error[0].code", equalTo("custom"))
                .body("error[0].path", equalTo(List.of("startTime")))
                .body("error[0].message", equalTo("startTime must be in the future"));
        book(token, inHours(30), 30, "Mars/Olympus_Mons").then().statusCode(400)
                .body("error[0].code", equalTo("custom"))
                .body("error[0].path", equalTo(List.of("timezone")))
                .body("error[0].message", equalTo("Invalid timezone"));
        book(token, inHours(30), 30, "+02:00").then().statusCode(400).body("error[0].message", equalTo("Invalid timezone"));
        book(token, inHours(30), 4, "UTC").then().statusCode(400)
                .body("error[0].code", equalTo("too_small"))
                .body("error[0].path", equalTo(List.of("durationMinutes")));
        book(token, inHours(30), 481, "UTC").then().statusCode(400)
                .body("error[0].code", equalTo("too_big"))
                .body("error[0].message", equalTo("Number must be less than or equal to 480"));
        given().contentType("application/json").body("{}").post("/ops/v1/bookings/" + token + "/appointment")
                .then().statusCode(400).body("error.size()", equalTo(3));
        assertEquals(0, count("SELECT count(*) FROM appointments WHERE request_id = ?", UUID.fromString(pending.requestId())));

        String id = book(token, inHours(30), 30, "UTC").then().statusCode(201).extract().path("appointment.id");
        book(token, inHours(31), 30, "UTC").then().statusCode(409).body("error", equalTo("Booking link has already been used"));
        call(id, "reschedule", Map.of("startTime", MovableClock.now().minusSeconds(1).toString())).then().statusCode(400)
                .body("error[0].message", equalTo("startTime must be in the future"));
        call(id, "cancel", Map.of("cancelledBy", "pharmacist")).then().statusCode(400)
                .body("error[0].code", equalTo("invalid_enum_value"))
                .body("error[0].path", equalTo(List.of("cancelledBy")));
        call(id, "outcome", Map.of("outcome", "maybe")).then().statusCode(400).body("error[0].path", equalTo(List.of("outcome")));
        call(id, "cancel", Map.of("cancelledBy", "patient")).then().statusCode(200);
        call(id, "reschedule", Map.of("startTime", inHours(40).toString())).then().statusCode(409)
                .body("error", equalTo("Appointment is cancelled, not booked"));
        call(id, "cancel", Map.of("cancelledBy", "patient")).then().statusCode(409)
                .body("error", equalTo("Appointment is cancelled, not booked"));
        given().get("/ops/v1/appointments/" + UUID.randomUUID()).then().statusCode(404).body("error", equalTo("Appointment not found"));
        given().get("/ops/v1/appointments/not-a-uuid").then().statusCode(404).body("error", equalTo("Appointment not found"));
        call(UUID.randomUUID().toString(), "cancel", Map.of("cancelledBy", "patient")).then().statusCode(404)
                .body("error", equalTo("Appointment not found"));
    }

    @Test
    void anExpiredLinkOrAConsultationAlreadyDecidedBooksNothing() {
        String token = requestConsultation(pending);
        MovableClock.advance(Duration.ofDays(7).plusMinutes(1));
        book(token, inHours(30), 30, "UTC").then().statusCode(410).body("error", equalTo("Booking link has expired"));
        MovableClock.reset();

        given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId(), "reason", "Not suitable"))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/deny").then().statusCode(200);
        book(token, inHours(30), 30, "UTC").then().statusCode(409).body("error", equalTo("Consultation is no longer open"));
        assertEquals(0, count("SELECT count(*) FROM appointments WHERE request_id = ?", UUID.fromString(pending.requestId())));
    }

    @Test
    void concurrentBookingsWithOneLinkMakeOneAppointment() {
        String token = requestConsultation(pending);
        List<CompletableFuture<Integer>> bookings = java.util.stream.IntStream.range(0, 6)
                .mapToObj(index -> CompletableFuture.supplyAsync(() -> book(token, inHours(30 + index), 30, "UTC").statusCode()))
                .toList();
        List<Integer> statuses = bookings.stream().map(CompletableFuture::join).sorted().toList();
        assertEquals(List.of(201, 409, 409, 409, 409, 409), statuses);
        assertEquals(1, count("SELECT count(*) FROM appointments WHERE request_id = ?", UUID.fromString(pending.requestId())));
    }

    @Test
    void aRequestLevelConsultationClosesOnCancel() {
        Map<String, Object> body = com.telemed.requests.request.RequestFixtures.consultation(pending.memberId());
        String requestId = com.telemed.requests.request.RequestFixtures.created(pending.partner(), body);
        String url = given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId()))
                .post("/ops/v1/requests/" + requestId + "/request-consultation")
                .then().statusCode(200).extract().path("booking.bookingUrl");
        given().header("X-Partner-Id", pending.partner()).get("/v1/requests/" + requestId).then().body("status", equalTo("call_requested"));
        given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId()))
                .post("/ops/v1/requests/" + requestId + "/request-consultation")
                .then().statusCode(400).body("error", equalTo("Request status is 'call_requested', expected 'pending'"));
        String id = book(url.substring(url.lastIndexOf('/') + 1), inHours(30), 30, "UTC").then().statusCode(201)
                .body("appointment.itemId", equalTo(null)).extract().path("appointment.id");
        call(id, "cancel", Map.of("cancelledBy", "patient")).then().statusCode(200);
        given().header("X-Partner-Id", pending.partner()).get("/v1/requests/" + requestId).then().body("status", equalTo("pending"));
        given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId()))
                .post("/ops/v1/requests/" + requestId + "/request-consultation").then().statusCode(200);
    }
}

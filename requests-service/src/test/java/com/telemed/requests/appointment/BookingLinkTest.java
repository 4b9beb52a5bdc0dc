package com.telemed.requests.appointment;

import static com.telemed.requests.appointment.AppointmentLifecycleTest.appointmentEvents;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.book;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.call;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.inHours;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.requestConsultation;
import static com.telemed.requests.availability.AvailabilityFixtures.everyDay;
import static com.telemed.requests.availability.AvailabilityFixtures.hours;
import static com.telemed.requests.availability.AvailabilityFixtures.put;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.requests.availability.AvailabilityFixtures;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The booking page's calls with a link's token (issue 39; interfaces A.4 to A.7): the link's state
 * with its appointment and never the prescriber's email, the prescriber's open slots (the hours less
 * every appointment that is not cancelled), "Not an open slot" when the prescriber has hours, and
 * the patient's reschedule and cancel until the appointment starts; every refusal changes nothing.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class BookingLinkTest {

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;
    /** Two days on, in UTC: the tests' prescribers work in UTC. */
    LocalDate day;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        MovableClock.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        day = LocalDate.now(ZoneOffset.UTC).plusDays(2);
    }

    @AfterEach
    void heal() {
        MovableClock.reset();
        neighbours.reset();
    }

    private Instant at(int hour, int minute) {
        return day.atTime(hour, minute).toInstant(ZoneOffset.UTC);
    }

    static Response booking(String token) {
        return given().get("/ops/v1/bookings/" + token);
    }

    static Response linkSlots(String token, Instant from, Instant to) {
        return AvailabilityFixtures.slots("/ops/v1/bookings/" + token + "/slots", from, to);
    }

    static Response reschedule(String token, Object body) {
        return given().contentType("application/json").body(body).post("/ops/v1/bookings/" + token + "/appointment/reschedule");
    }

    static Response cancel(String token, Object body) {
        return given().contentType("application/json").body(body).post("/ops/v1/bookings/" + token + "/appointment/cancel");
    }

    /** Another pending request of the same partner, member and drug, its consultation asked of the same prescriber: its token. */
    static String anotherLink(PendingRequest pending) {
        String requestId = RequestFixtures.created(pending.partner(), RequestFixtures.prescription(pending.memberId(), pending.drugId()));
        String itemId = RequestFixtures.get(pending.partner(), requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        String url = given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId()))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/request-consultation")
                .then().statusCode(200).extract().path("booking.bookingUrl");
        return url.substring(url.lastIndexOf('/') + 1);
    }

    private List<String> starts(Response slots) {
        return slots.then().statusCode(200).extract().path("slots.startTime");
    }

    private static String wire(Instant instant) {
        return Timestamps.format(instant);
    }

    private String itemStatus() {
        return given().header("X-Partner-Id", pending.partner()).get("/v1/requests/" + pending.requestId())
                .then().statusCode(200).extract().path("lineItems[0].status");
    }

    @Test
    void theLinkIsOpenThenBookedThenCancelledByThePatientAndNeverShowsAnEmail() {
        Response consultation = given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId()))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/request-consultation");
        String url = consultation.then().statusCode(200).extract().path("booking.bookingUrl");
        String expiresAt = consultation.path("booking.bookingExpiresAt");
        String token = url.substring(url.lastIndexOf('/') + 1);

        Map<String, Object> open = new LinkedHashMap<>();
        open.put("status", "open");
        open.put("expiresAt", expiresAt);
        open.put("prescriberName", "Dr Lin");
        open.put("slotMinutes", null);
        open.put("appointment", null);
        Response read = booking(token);
        read.then().statusCode(200).body("", equalTo(Map.of("booking", open)));
        assertFalse(read.asString().contains("@") || read.asString().toLowerCase().contains("email"), read.asString());

        put(pending.prescriberId(), hours("UTC", everyDay("00:00", "24:00"), 30)).then().statusCode(200);
        open.put("slotMinutes", 30);
        booking(token).then().statusCode(200).body("", equalTo(Map.of("booking", open)));
        assertEquals(48, starts(linkSlots(token, at(0, 0), at(0, 0).plus(Duration.ofDays(1)))).size());

        Response booked = book(token, at(10, 0), 30, "Europe/Berlin");
        booked.then().statusCode(201);
        Map<String, Object> appointment = booked.jsonPath().getMap("appointment");
        Map<String, Object> expected = new LinkedHashMap<>(open);
        expected.put("status", "booked");
        expected.put("appointment", appointment);
        read = booking(token);
        read.then().statusCode(200).body("", equalTo(Map.of("booking", expected)));
        assertFalse(read.asString().contains("@") || read.asString().toLowerCase().contains("email"), read.asString());
        assertFalse(starts(linkSlots(token, at(0, 0), at(0, 0).plus(Duration.ofDays(1)))).contains(wire(at(10, 0))));

        Response cancelled = cancel(token, Map.of("reason", "Feeling better"));
        cancelled.then().statusCode(200)
                .body("appointment.id", equalTo(appointment.get("id")))
                .body("appointment.status", equalTo("cancelled"))
                .body("appointment.cancelledBy", equalTo("patient"))
                .body("appointment.cancellationReason", equalTo("Feeling better"));
        expected.put("status", "cancelled");
        expected.put("appointment", cancelled.jsonPath().getMap("appointment"));
        booking(token).then().statusCode(200).body("", equalTo(Map.of("booking", expected)));
        assertEquals("pending", itemStatus(), "the patient's cancel puts the item back to pending");
        assertTrue(starts(linkSlots(token, at(0, 0), at(0, 0).plus(Duration.ofDays(1)))).contains(wire(at(10, 0))),
                "a cancelled appointment frees its slot");
        List<String> history = texts("SELECT action || ' ' || by_actor FROM history_entries WHERE item_id = ? ORDER BY id",
                UUID.fromString(pending.itemId()));
        assertEquals("appointment_cancelled service", history.get(history.size() - 1));

        // The same shape as the operator's cancel: exactly partner-api.md's fields, cancelledBy patient.
        List<JsonNode> events = appointmentEvents(pending.requestId(), 4);
        assertEquals(List.of("appointment.consultation_requested", "appointment.booked", "appointment.cancelled"),
                events.stream().map(event -> event.path("event").asText()).toList());
        JsonNode event = events.get(2);
        assertEquals(List.of("event", "requestId", "memberId", "appointmentId", "patientName", "patientEmail", "prescriberName",
                "cancelledBy", "cancellationReason", "timestamp"), iterate(event));
        assertEquals("patient", event.path("cancelledBy").asText());
        assertEquals("Feeling better", event.path("cancellationReason").asText());
        assertEquals(appointment.get("id"), event.path("appointmentId").asText());

        // One appointment per link: a new one is the console's to issue.
        book(token, at(11, 0), 30, "UTC").then().statusCode(409).body("", equalTo(error("Booking link has already been used")));
    }

    private static List<String> iterate(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aLinkWithNothingBookedIsClosedOnceTheConsultationIsDecided() {
        String token = requestConsultation(pending);
        given().contentType("application/json").body(Map.of("prescriberId", pending.prescriberId(), "reason", "Not suitable"))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/deny").then().statusCode(200);
        booking(token).then().statusCode(200)
                .body("booking.status", equalTo("closed"))
                .body("booking.appointment", equalTo(null));
    }

    @Test
    void unknownExpiredAndUnbookedLinksAreRefusedAndChangeNothing() {
        Instant from = inHours(24);
        for (String unknown : List.of("no-such-token", UUID.randomUUID().toString())) {
            booking(unknown).then().statusCode(404).body("", equalTo(error("Booking link not found")));
            linkSlots(unknown, from, from.plus(Duration.ofDays(1))).then().statusCode(404).body("", equalTo(error("Booking link not found")));
            reschedule(unknown, Map.of("startTime", inHours(30).toString())).then().statusCode(404)
                    .body("", equalTo(error("Booking link not found")));
            cancel(unknown, Map.of()).then().statusCode(404).body("", equalTo(error("Booking link not found")));
        }

        String token = requestConsultation(pending);
        reschedule(token, Map.of("startTime", inHours(30).toString())).then().statusCode(409)
                .body("", equalTo(error("Nothing booked with this link")));
        cancel(token, Map.of()).then().statusCode(409).body("", equalTo(error("Nothing booked with this link")));

        MovableClock.advance(Duration.ofDays(7).plusMinutes(1));
        Instant later = inHours(24);
        booking(token).then().statusCode(410).body("", equalTo(error("Booking link has expired")));
        linkSlots(token, later, later.plus(Duration.ofDays(1))).then().statusCode(410).body("", equalTo(error("Booking link has expired")));
        reschedule(token, Map.of("startTime", inHours(30).toString())).then().statusCode(410)
                .body("", equalTo(error("Booking link has expired")));
        cancel(token, Map.of()).then().statusCode(410).body("", equalTo(error("Booking link has expired")));
        assertEquals(0, count("SELECT count(*) FROM appointments WHERE request_id = ?", UUID.fromString(pending.requestId())));
    }

    @Test
    void aBookedLinkStillAnswersAfterItsExpiryUntilTheAppointmentStarts() {
        String token = requestConsultation(pending);
        String id = book(token, inHours(9 * 24), 30, "UTC").then().statusCode(201).extract().path("appointment.id");
        MovableClock.advance(Duration.ofDays(7).plusMinutes(1));
        booking(token).then().statusCode(200).body("booking.status", equalTo("booked")).body("booking.appointment.id", equalTo(id));
        linkSlots(token, inHours(1), inHours(25)).then().statusCode(200).body("", equalTo(Map.of("slots", List.of())));
        Instant moved = inHours(3 * 24);
        reschedule(token, Map.of("startTime", moved.toString())).then().statusCode(200)
                .body("appointment.id", equalTo(id))
                .body("appointment.startTime", equalTo(moved.toString()))
                .body("appointment.durationMinutes", equalTo(30))
                .body("appointment.timezone", equalTo("UTC"));

        // Started: neither moved nor cancelled by the patient any more.
        MovableClock.advance(Duration.ofDays(3).plusMinutes(1));
        reschedule(token, Map.of("startTime", inHours(30).toString())).then().statusCode(409)
                .body("", equalTo(error("Appointment has already started")));
        cancel(token, Map.of()).then().statusCode(409).body("", equalTo(error("Appointment has already started")));
        given().get("/ops/v1/appointments/" + id).then().statusCode(200)
                .body("appointment.status", equalTo("booked"))
                .body("appointment.startTime", equalTo(moved.toString()));
    }

    @Test
    void anAppointmentNoLongerBookedIsNotMovedOrCancelledByTheLink() {
        String token = requestConsultation(pending);
        String id = book(token, inHours(30), 30, "UTC").then().statusCode(201).extract().path("appointment.id");
        call(id, "outcome", Map.of("outcome", "held")).then().statusCode(200);
        booking(token).then().statusCode(200)
                .body("booking.status", equalTo("booked"))
                .body("booking.appointment.status", equalTo("held"));
        reschedule(token, Map.of("startTime", inHours(40).toString())).then().statusCode(409)
                .body("", equalTo(error("Appointment is held, not booked")));
        cancel(token, Map.of()).then().statusCode(409).body("", equalTo(error("Appointment is held, not booked")));

        String other = anotherLink(pending);
        book(other, inHours(50), 30, "UTC").then().statusCode(201);
        cancel(other, Map.of()).then().statusCode(200).body("appointment.cancellationReason", equalTo(null));
        cancel(other, Map.of()).then().statusCode(409).body("", equalTo(error("Appointment is cancelled, not booked")));
        reschedule(other, Map.of("startTime", inHours(60).toString())).then().statusCode(409)
                .body("", equalTo(error("Appointment is cancelled, not booked")));
    }

    @Test
    void withWeeklyHoursOnlyTheStartOfASlotAndTheSlotLengthBookOrReschedule() {
        put(pending.prescriberId(), hours("UTC", everyDay("09:00", "12:00"), 30)).then().statusCode(200);
        String token = requestConsultation(pending);
        for (Object[] refused : new Object[][] {{at(9, 15), 30}, {at(9, 0), 45}, {at(9, 0), 15}, {at(13, 0), 30}, {at(11, 45), 30}}) {
            book(token, (Instant) refused[0], (Integer) refused[1], "UTC").then().statusCode(400)
                    .body("", equalTo(error("Not an open slot")));
        }
        assertEquals(0, count("SELECT count(*) FROM appointments WHERE request_id = ?", UUID.fromString(pending.requestId())));
        String id = book(token, at(9, 30), 30, "America/New_York").then().statusCode(201).extract().path("appointment.id");

        reschedule(token, Map.of("startTime", wire(at(9, 45)))).then().statusCode(400).body("", equalTo(error("Not an open slot")));
        // Sent with an offset: the instant counts (07:00-04:00 is 11:00 UTC).
        reschedule(token, Map.of("startTime", day.atTime(7, 0).atOffset(ZoneOffset.ofHours(-4)).toString(), "timezone", "Asia/Tokyo"))
                .then().statusCode(200)
                .body("appointment.id", equalTo(id))
                .body("appointment.startTime", equalTo(wire(at(11, 0))))
                .body("appointment.endTime", equalTo(wire(at(11, 30))))
                .body("appointment.durationMinutes", equalTo(30))
                .body("appointment.timezone", equalTo("Asia/Tokyo"));
        List<JsonNode> events = appointmentEvents(pending.requestId(), 4);
        assertEquals("appointment.rescheduled", events.get(2).path("event").asText());
        assertEquals(wire(at(11, 0)), events.get(2).path("startTime").asText());
    }

    @Test
    void theLinksBodiesAreCheckedFirstAndEveryIssueIsAnswered() {
        String token = requestConsultation(pending);
        book(token, inHours(30), 30, "UTC").then().statusCode(201);
        reschedule(token, Map.of()).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("startTime"), "Required", "expected", "string", "received", "undefined"))));
        reschedule(token, Map.of("startTime", MovableClock.now().minusSeconds(60).toString(), "timezone", "Mars/Olympus_Mons"))
                .then().statusCode(400).body("error", equalTo(List.of(
                        issue("custom", List.of("timezone"), "Invalid timezone"),
                        issue("custom", List.of("startTime"), "startTime must be in the future"))));
        cancel(token, Map.of("reason", "")).then().statusCode(400).body("error", equalTo(List.of(
                issue("too_small", List.of("reason"), "String must contain at least 1 character(s)",
                        "minimum", 1, "type", "string", "inclusive", true, "exact", false))));
        cancel(token, Map.of("reason", "x".repeat(1001))).then().statusCode(400).body("error[0].code", equalTo("too_big"));
        // Bad bodies are answered before the link is looked up.
        reschedule("no-such-token", Map.of()).then().statusCode(400);
        given().get("/ops/v1/appointments/" + texts("SELECT id::text FROM appointments WHERE request_id = ?",
                        UUID.fromString(pending.requestId())).get(0)).then().statusCode(200)
                .body("appointment.status", equalTo("booked"));
    }

    /**
     * Slots less appointments: every appointment of the prescriber that is not cancelled takes its
     * time out of the slots, on the grid or not (one booked before the hours were set), held or
     * missed ones included; a cancelled one gives it back. The prescriber's read and the link's agree.
     */
    @Test
    void everyAppointmentThatIsNotCancelledTakesItsTimeOutOfTheSlots() {
        String first = requestConsultation(pending);
        // No hours yet: any time books.
        String offGrid = book(first, at(9, 45), 30, "UTC").then().statusCode(201).extract().path("appointment.id");
        put(pending.prescriberId(), hours("UTC", everyDay("09:00", "11:00"), 30)).then().statusCode(200);
        String second = anotherLink(pending);
        String prescriberSlots = "/ops/v1/prescribers/" + pending.prescriberId() + "/slots";
        Instant from = at(0, 0);
        Instant to = from.plus(Duration.ofDays(1));

        List<List<String>> table = new java.util.ArrayList<>();
        table.add(starts(AvailabilityFixtures.slots(prescriberSlots, from, to)));
        String onGrid = book(second, at(10, 30), 30, "UTC").then().statusCode(201).extract().path("appointment.id");
        table.add(starts(AvailabilityFixtures.slots(prescriberSlots, from, to)));
        call(offGrid, "outcome", Map.of("outcome", "no_show")).then().statusCode(200);
        table.add(starts(AvailabilityFixtures.slots(prescriberSlots, from, to)));
        cancel(second, Map.of()).then().statusCode(200);
        table.add(starts(AvailabilityFixtures.slots(prescriberSlots, from, to)));
        assertEquals(List.of(
                        List.of(wire(at(9, 0)), wire(at(10, 30))),   // 09:45-10:15 takes 09:30 and 10:00
                        List.of(wire(at(9, 0))),                      // 10:30 booked
                        List.of(wire(at(9, 0))),                      // a missed appointment keeps its time
                        List.of(wire(at(9, 0)), wire(at(10, 30)))),   // a cancelled one gives it back
                table);
        assertEquals(table.get(3), starts(linkSlots(second, from, to)));
        assertEquals(table.get(3), starts(linkSlots(first, from, to)));
        given().get("/ops/v1/appointments/" + onGrid).then().body("appointment.status", equalTo("cancelled"));
    }
}

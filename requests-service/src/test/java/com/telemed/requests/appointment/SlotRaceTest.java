package com.telemed.requests.appointment;

import static com.telemed.requests.availability.AvailabilityFixtures.everyDay;
import static com.telemed.requests.availability.AvailabilityFixtures.hours;
import static com.telemed.requests.availability.AvailabilityFixtures.put;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.common.json.Timestamps;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.PatientNeighboursResource;
import com.telemed.requests.request.RequestEvents;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One prescriber never has two appointments that overlap, decided by PostgreSQL (V19's exclusion
 * constraint; interfaces A.6 and A.8): 50 patients with 50 booking links racing for one slot get
 * one {@code 201} and 49 {@code 409 Slot no longer available}, one appointment and one
 * {@code appointment.booked}; a reschedule into a taken slot, by the link or by the operator, is the
 * same 409 and changes nothing. (The neighbours answer patiently: 50 member reads at once.)
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(PatientNeighboursResource.class)
class SlotRaceTest extends PartnerWithDrugAndMember {

    static final Map<String, String> SLOT_TAKEN = Map.of("error", "Slot no longer available");

    String prescriberId;
    LocalDate day;

    @BeforeEach
    void prescriberWithHours() {
        prescriberId = given().contentType("application/json")
                .body(Map.of("name", "Dr Race", "email", "race+" + UUID.randomUUID() + "@example.com"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        put(prescriberId, hours("UTC", everyDay("00:00", "24:00"), 30)).then().statusCode(200);
        day = LocalDate.now(ZoneOffset.UTC).plusDays(2);
    }

    private Instant at(int hour, int minute) {
        return day.atTime(hour, minute).toInstant(ZoneOffset.UTC);
    }

    /** A pending request of the partner's member, its consultation asked of the prescriber: {@code [requestId, token]}. */
    private String[] link() {
        String requestId = RequestFixtures.created(partner, RequestFixtures.prescription(memberId, drugId));
        String itemId = RequestFixtures.get(partner, requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        String url = given().contentType("application/json").body(Map.of("prescriberId", prescriberId))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/request-consultation")
                .then().statusCode(200).extract().path("booking.bookingUrl");
        return new String[] {requestId, url.substring(url.lastIndexOf('/') + 1)};
    }


    @Test
    void fiftyBookingsOfOneSlotMakeOneAppointmentAndOneEvent() throws Exception {
        int callers = 50;
        List<String[]> links = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            links.add(link());
        }
        Instant slot = at(10, 0);
        List<Response> answers = Parallel.atOnce(callers, caller -> AppointmentLifecycleTest.book(links.get(caller)[1], slot, 30, "UTC"));

        List<Integer> statuses = answers.stream().map(Response::statusCode).sorted().toList();
        List<Integer> expected = new ArrayList<>(List.of(201));
        expected.addAll(java.util.Collections.nCopies(callers - 1, 409));
        assertEquals(expected, statuses);
        for (Response answer : answers) {
            if (answer.statusCode() == 409) {
                assertEquals(SLOT_TAKEN, answer.jsonPath().getMap(""));
            } else {
                assertEquals(Timestamps.format(slot), answer.path("appointment.startTime"));
            }
        }
        assertEquals(1, count("SELECT count(*) FROM appointments WHERE prescriber_id = ?", UUID.fromString(prescriberId)));
        // Nothing half-written by the 49: one booked history entry, one reminder row set, one event.
        Set<String> requestIds = new HashSet<>();
        links.forEach(link -> requestIds.add(link[0]));
        assertEquals(1, count("SELECT count(*) FROM history_entries WHERE action = 'appointment_booked'"
                + " AND request_id::text = ANY (string_to_array(?, ','))", String.join(",", requestIds)));
        assertEquals(1, count("SELECT count(*) FROM appointment_reminders r JOIN appointments a ON a.id = r.appointment_id"
                + " WHERE a.prescriber_id = ?", UUID.fromString(prescriberId)));
        TopicReader.readExactly(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC,
                record -> requestIds.contains(record.key())
                        && AppointmentEvents.APPOINTMENT_BOOKED.equals(TopicReader.json(record).path("type").asText()),
                1, Duration.ofSeconds(60));
    }

    @Test
    void aRescheduleIntoATakenSlotByTheLinkOrTheOperatorIsRefusedAndChangesNothing() {
        String[] first = link();
        String[] second = link();
        String taken = AppointmentLifecycleTest.book(first[1], at(10, 0), 30, "UTC").then().statusCode(201).extract().path("appointment.id");
        String moving = AppointmentLifecycleTest.book(second[1], at(11, 0), 30, "UTC").then().statusCode(201).extract().path("appointment.id");

        BookingLinkTest.reschedule(second[1], Map.of("startTime", at(10, 0).toString())).then().statusCode(409)
                .body("", equalTo(SLOT_TAKEN));
        // The operator may move it anywhere, but not over another appointment: a partial overlap is refused too.
        AppointmentLifecycleTest.call(moving, "reschedule", Map.of("startTime", at(9, 45).toString())).then().statusCode(409)
                .body("", equalTo(SLOT_TAKEN));
        AppointmentLifecycleTest.call(moving, "reschedule", Map.of("startTime", at(10, 15).toString(), "durationMinutes", 5))
                .then().statusCode(409).body("", equalTo(SLOT_TAKEN));
        given().get("/ops/v1/appointments/" + moving).then().statusCode(200)
                .body("appointment.startTime", equalTo(Timestamps.format(at(11, 0))))
                .body("appointment.durationMinutes", equalTo(30));
        assertEquals(0, count("SELECT count(*) FROM history_entries WHERE action = 'appointment_rescheduled' AND request_id = ?",
                UUID.fromString(second[0])));

        // Touching is not overlapping; a cancelled appointment frees its time.
        AppointmentLifecycleTest.call(moving, "reschedule", Map.of("startTime", at(9, 30).toString())).then().statusCode(200);
        AppointmentLifecycleTest.call(moving, "reschedule", Map.of("startTime", at(9, 30).toString(), "durationMinutes", 45))
                .then().statusCode(409).body("", equalTo(SLOT_TAKEN));
        AppointmentLifecycleTest.call(taken, "cancel", Map.of("cancelledBy", "prescriber")).then().statusCode(200);
        BookingLinkTest.reschedule(second[1], Map.of("startTime", at(10, 0).toString())).then().statusCode(200)
                .body("appointment.id", equalTo(moving))
                .body("appointment.startTime", equalTo(Timestamps.format(at(10, 0))));
    }
}

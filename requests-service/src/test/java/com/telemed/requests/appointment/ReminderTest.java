package com.telemed.requests.appointment;

import static com.telemed.requests.appointment.AppointmentLifecycleTest.JSON;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.TIMESTAMP;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.book;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.call;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.inHours;
import static com.telemed.requests.appointment.AppointmentLifecycleTest.requestConsultation;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static com.telemed.testkit.quarkus.ServiceDatabase.update;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code appointment.reminder} timing with the tests' {@link MovableClock} (the default offset:
 * 24 hours before the start): once when due, never early, none for an offset already passed, the
 * new start's after a reschedule and never the old one's, none after a cancel; and exactly once
 * each when many come due at once and several senders race for them.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class ReminderTest {

    private static final Duration DAY = Duration.ofHours(24);

    @Inject
    FakeNeighbours neighbours;

    @Inject
    ReminderJob reminders;

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

    private String booked(Instant start) {
        return book(requestConsultation(pending), start, 30, "Europe/Paris").then().statusCode(201).extract().path("appointment.id");
    }

    private static List<Map<String, Object>> reminderRows(String appointmentId) {
        return rows("SELECT due_at, start_time, sent_at FROM appointment_reminders WHERE appointment_id = ? ORDER BY id",
                UUID.fromString(appointmentId));
    }

    private static Instant at(Object timestamp) {
        return ((Timestamp) timestamp).toInstant();
    }

    /** The request's reminders on care.events, once {@code total} events of the request are there. */
    private List<JsonNode> reminderEvents(int total) {
        return TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC,
                        pending.requestId(), total, Duration.ofSeconds(30))).stream()
                .filter(envelope -> envelope.path("type").asText().equals(AppointmentEvents.APPOINTMENT_REMINDER))
                .map(envelope -> envelope.get("webhook"))
                .toList();
    }

    @Test
    void aReminderFiresOnceWhenItsOffsetIsReachedAndNeverBefore() {
        Instant start = inHours(48);
        String id = booked(start);
        List<Map<String, Object>> planned = reminderRows(id);
        assertEquals(1, planned.size());
        assertEquals(start.minus(DAY), at(planned.get(0).get("due_at")));

        MovableClock.advance(DAY.minusMinutes(1));
        reminders.sendDue();
        assertEquals(null, reminderRows(id).get(0).get("sent_at"), "a minute early, nothing is sent");

        MovableClock.advance(Duration.ofMinutes(2));
        await().atMost(Duration.ofSeconds(30)).until(() -> reminderRows(id).get(0).get("sent_at") != null);
        reminders.sendDue();

        // item.consultation_requested, appointment.consultation_requested, booked, reminder.
        List<JsonNode> sent = reminderEvents(4);
        assertEquals(1, sent.size(), sent.toString());
        JsonNode reminder = sent.get(0);
        assertTrue(reminder.path("timestamp").asText().matches(TIMESTAMP), reminder.toString());
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("event", "appointment.reminder");
        expected.put("requestId", pending.requestId());
        expected.put("memberId", pending.memberId());
        expected.put("appointmentId", id);
        expected.put("patientName", "Grace Hopper");
        expected.put("patientEmail", neighbours.member(pending.memberId()).getString("email"));
        expected.put("prescriberName", "Dr Lin");
        expected.put("startTime", start.toString());
        expected.put("endTime", start.plus(Duration.ofMinutes(30)).toString());
        expected.put("timezone", "Europe/Paris");
        expected.put("timestamp", reminder.path("timestamp").asText());
        assertEquals(JSON.valueToTree(expected), reminder);
    }

    @Test
    void anOffsetAlreadyPassedAtBookingIsSkipped() {
        String id = booked(inHours(2));
        assertEquals(List.of(), reminderRows(id));
    }

    @Test
    void aRescheduledAppointmentIsRemindedOfItsNewTimeOnly() {
        String id = booked(inHours(48));
        Instant moved = inHours(96);
        call(id, "reschedule", Map.of("startTime", moved.toString())).then().statusCode(200);
        List<Map<String, Object>> planned = reminderRows(id);
        assertEquals(1, planned.size(), "the old start's reminder is gone");
        assertEquals(moved, at(planned.get(0).get("start_time")));

        MovableClock.advance(Duration.ofHours(25));
        reminders.sendDue();
        assertEquals(null, reminderRows(id).get(0).get("sent_at"), "the old start's time passes with nothing sent");

        MovableClock.advance(Duration.ofHours(48));
        await().atMost(Duration.ofSeconds(30)).until(() -> reminderRows(id).get(0).get("sent_at") != null);
        // consultation requested (2), booked, rescheduled, reminder.
        List<JsonNode> sent = reminderEvents(5);
        assertEquals(1, sent.size(), sent.toString());
        assertEquals(moved.toString(), sent.get(0).path("startTime").asText());
    }

    @Test
    void aCancelledAppointmentGetsNoReminder() {
        String id = booked(inHours(48));
        call(id, "cancel", Map.of("cancelledBy", "patient")).then().statusCode(200);
        assertEquals(List.of(), reminderRows(id));
        MovableClock.advance(Duration.ofHours(30));
        reminders.sendDue();
        assertEquals(0, count("SELECT count(*) FROM appointment_reminders WHERE appointment_id = ?", UUID.fromString(id)));
    }

    @Test
    void remindersComingDueTogetherAreEachSentOnceWhateverRacesForThem() {
        String id = booked(inHours(48));
        Instant start = at(reminderRows(id).get(0).get("start_time"));
        // 100 reminders of this appointment, all due now: as many as one batch, raced by four senders and the job.
        update("DELETE FROM appointment_reminders WHERE appointment_id = ?", UUID.fromString(id));
        for (int offset = 1; offset <= 100; offset++) {
            update("INSERT INTO appointment_reminders (appointment_id, offset_seconds, start_time, due_at) VALUES (?, ?, ?, ?)",
                    UUID.fromString(id), (long) offset, Timestamp.from(start), Timestamp.from(MovableClock.now().minusSeconds(offset)));
        }
        List<CompletableFuture<Integer>> senders = IntStream.range(0, 4)
                .mapToObj(sender -> CompletableFuture.supplyAsync(reminders::sendDue)).toList();
        senders.forEach(CompletableFuture::join);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count("SELECT count(*) FROM appointment_reminders WHERE appointment_id = ? AND sent_at IS NULL",
                        UUID.fromString(id)) == 0);
        // consultation requested (2), booked, 100 reminders, and nothing more (TopicReader reads on to see an extra one).
        List<JsonNode> sent = reminderEvents(103);
        assertEquals(100, sent.size());
    }
}

package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The appointment lifecycle of operations-api.md ("Consultations") driven through the gateway of
 * the shared sandbox platform, every service real, as the console, the hosted booking page and a
 * partner see it: the console asks for a consultation on the item, the patient books with the
 * link's token, reschedules, cancels, the console issues a second link, the patient books again,
 * the consultation is held and the prescriber approves.
 *
 * <p>It proves that the partner's webhook receiver (a real HTTP server on loopback) gets exactly the
 * ten events of partner-api.md for that story, each signed with the partner's secret and each
 * payload exactly the contract's fields, in its order, with the values of the calls that caused it
 * ({@code item.consultation_requested} + {@code appointment.consultation_requested} twice,
 * {@code appointment.booked} twice, {@code appointment.rescheduled}, {@code appointment.cancelled},
 * {@code item.approved}, {@code request.all_approved}; no event for the outcome), matched by name
 * and content since delivery order is not guaranteed; that the partner's {@code GET /v1/requests/:id}
 * shows the item {@code call_requested} while a consultation is asked or booked, {@code pending}
 * after the cancel and after the outcome, {@code approved} at the end, with the item's history of
 * the story; and that no booking token shows in any partner read (the token is a bearer credential
 * handed out only in the {@code bookingUrl}).
 */
@ExtendWith(RunningPlatform.class)
class AppointmentsThroughGatewayIT {

    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter WITH_OFFSET = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX");
    private static final Duration LINK_VALIDITY = Duration.ofDays(7);
    private static final String PATIENT = "Mary Jackson";
    private static final String PRESCRIBER = "Dr Okafor";
    private static final String DRUG_NAME = "Tirzepatide E2E";

    private RunningPlatform.Handle platform;
    private String apiKey;
    private String requestId;
    private String itemId;
    private final List<String> tokens = new ArrayList<>();

    /** A booking link as the console got it. */
    private record Link(String url, String token, String expiresAt) {
    }

    /** A slot as the booking page sends it: local time with its offset, and the zone. */
    private record Slot(ZonedDateTime start, int minutes) {
        String startWithOffset() {
            return WITH_OFFSET.format(start);
        }

        String startUtc() {
            return WIRE.format(start.toInstant());
        }

        String endUtc() {
            return WIRE.format(start.toInstant().plus(Duration.ofMinutes(minutes)));
        }

        String zone() {
            return start.getZone().getId();
        }
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner() {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey);
    }

    @Test
    void bookRescheduleCancelReissueBookAgainHoldAndApproveReachThePartnerExactlyAsTheContractSays(RunningPlatform.Handle platform)
            throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            JsonPath created = ops().body(Map.of("name", "Appointments E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = created.getString("partner.id");
            apiKey = created.getString("apiKey");
            String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook")
                    .then().statusCode(200).body("secret", matchesPattern("[0-9a-f]{64}")).extract().path("secret");
            // Deferred: the approval transmits nothing, so the item's history ends with it.
            ops().body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partnerId + "/fulfilment").then().statusCode(200);
            String drugId = "appt-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            ops().body("""
                            {"name": "%s", "classification": "non-controlled",
                             "skus": [{"label": "2.5 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}"""
                            .formatted(DRUG_NAME))
                    .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
            String prescriberId = ops().body(Map.of("name", PRESCRIBER, "email", "okafor." + UUID.randomUUID() + "@clinic.example"))
                    .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
            String email = "mary." + UUID.randomUUID() + "@example.com";
            requestId = partner().contentType(ContentType.JSON).body("""
                            {"caseNotes": "appointments e2e", "items": [{"drugId": "%s", "dosage": "2.5 mg"}],
                             "member": {"firstName": "Mary", "lastName": "Jackson", "email": "%s",
                                        "dateOfBirth": "1921-04-09", "state": "VA",
                                        "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}}"""
                            .formatted(drugId, email))
                    .post("/v1/requests").then().statusCode(201).extract().path("requestId");
            JsonPath read = partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().jsonPath();
            itemId = read.getString("lineItems[0].itemId");
            String memberId = read.getString("memberId");
            assertEquals("pending", itemStatus());

            // The console asks for a consultation: a booking link, the item call_requested.
            Link first = requestConsultation(prescriberId);
            assertEquals("call_requested", itemStatus());

            // The patient books with the link's token (a New York morning, sent with its offset).
            ZonedDateTime day = ZonedDateTime.now(ZoneId.of("America/New_York")).plusDays(2).truncatedTo(ChronoUnit.DAYS);
            Slot booked = new Slot(day.withHour(10), 30);
            JsonPath appointment = ops().body(Map.of("startTime", booked.startWithOffset(), "durationMinutes", booked.minutes(),
                            "timezone", booked.zone()))
                    .post("/ops/v1/bookings/" + first.token() + "/appointment").then().statusCode(201).extract().jsonPath();
            String firstId = appointment.getString("appointment.id");
            assertAppointment(appointment, firstId, memberId, prescriberId, "booked", booked, null, null);
            String bookedAt = appointment.getString("appointment.createdAt");
            assertEquals(bookedAt, appointment.getString("appointment.updatedAt"));
            ops().get("/ops/v1/appointments/" + firstId).then().statusCode(200).body("appointment.status", equalTo("booked"));
            assertEquals("call_requested", itemStatus(), "a booked consultation is still asked");

            // Rescheduled to a London afternoon, the duration kept.
            Slot moved = new Slot(ZonedDateTime.now(ZoneId.of("Europe/London")).plusDays(3).truncatedTo(ChronoUnit.DAYS)
                    .withHour(14).withMinute(30), 30);
            JsonPath rescheduled = ops().body(Map.of("startTime", moved.startWithOffset(), "timezone", moved.zone()))
                    .post("/ops/v1/appointments/" + firstId + "/reschedule").then().statusCode(200).extract().jsonPath();
            assertAppointment(rescheduled, firstId, memberId, prescriberId, "booked", moved, null, null);
            assertEquals(bookedAt, rescheduled.getString("appointment.createdAt"));
            String rescheduledAt = rescheduled.getString("appointment.updatedAt");
            assertEquals("call_requested", itemStatus());

            // The patient cancels: the consultation closes, the item is pending again.
            JsonPath cancelled = ops().body(Map.of("cancelledBy", "patient", "reason", "Travelling that week"))
                    .post("/ops/v1/appointments/" + firstId + "/cancel").then().statusCode(200).extract().jsonPath();
            assertAppointment(cancelled, firstId, memberId, prescriberId, "cancelled", moved, "patient", "Travelling that week");
            String cancelledAt = cancelled.getString("appointment.updatedAt");
            assertEquals("pending", itemStatus(), "a cancelled appointment puts the item back to pending");

            // The console issues a second link; the patient books again (a Sydney morning, 20 minutes).
            Link second = requestConsultation(prescriberId);
            assertNotEquals(first.token(), second.token());
            assertEquals("call_requested", itemStatus());
            Slot again = new Slot(ZonedDateTime.now(ZoneId.of("Australia/Sydney")).plusDays(4).truncatedTo(ChronoUnit.DAYS)
                    .withHour(9).withMinute(15), 20);
            JsonPath rebooked = ops().body(Map.of("startTime", again.startWithOffset(), "durationMinutes", again.minutes(),
                            "timezone", again.zone()))
                    .post("/ops/v1/bookings/" + second.token() + "/appointment").then().statusCode(201).extract().jsonPath();
            String secondId = rebooked.getString("appointment.id");
            assertNotEquals(firstId, secondId);
            assertAppointment(rebooked, secondId, memberId, prescriberId, "booked", again, null, null);
            String rebookedAt = rebooked.getString("appointment.createdAt");
            assertEquals("call_requested", itemStatus());

            // Held: the flag clears (no event), the prescriber still decides.
            JsonPath held = ops().body(Map.of("outcome", "held"))
                    .post("/ops/v1/appointments/" + secondId + "/outcome").then().statusCode(200).extract().jsonPath();
            assertAppointment(held, secondId, memberId, prescriberId, "held", again, null, null);
            assertEquals("pending", itemStatus(), "a held consultation leaves the decision to the prescriber");

            ops().body(Map.of("prescriberId", prescriberId, "prescription", Map.of("quantity", 4, "daysSupply", 28,
                            "directions", "Inject weekly", "refills", 0, "dispenseAsWritten", false)))
                    .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve").then().statusCode(200);
            assertEquals("approved", itemStatus());

            // The item's history tells the story, in order.
            List<Map<String, Object>> history = partner().get("/v1/requests/" + requestId).then().statusCode(200)
                    .extract().path("lineItems[0].history");
            assertEquals(List.of("created api", "call_requested " + prescriberId, "appointment_booked service",
                            "appointment_rescheduled service", "appointment_cancelled service", "call_requested " + prescriberId,
                            "appointment_booked service", "consult_held " + prescriberId, "approved " + prescriberId),
                    history.stream().map(entry -> entry.get("action") + " " + entry.get("by")).toList());
            assertEquals("Travelling that week", history.get(4).get("reason"));

            // Exactly ten deliveries, then nothing more.
            await("ten deliveries").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> receiver.received().size() >= 10);
            await("no eleventh delivery").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> receiver.received().size() == 10);
            List<Received> received = receiver.received();
            for (Received delivery : received) {
                WebhookReceiver.assertSigned(delivery, secret);
            }
            assertEquals(List.of("appointment.booked", "appointment.booked", "appointment.cancelled",
                            "appointment.consultation_requested", "appointment.consultation_requested", "appointment.rescheduled",
                            "item.approved", "item.consultation_requested", "item.consultation_requested", "request.all_approved"),
                    received.stream().map(Received::event).sorted().toList());
            assertEquals(10, received.stream().map(delivery -> delivery.headers().get("x-webhook-id")).distinct().count(),
                    "each delivery is its own event");

            // The two consultations: each link's event, and the item event of the same instant.
            List<String> consultationTimes = new ArrayList<>();
            for (Link link : List.of(first, second)) {
                JsonNode event = single(receiver, "appointment.consultation_requested",
                        json -> link.url().equals(json.path("bookingUrl").asText()));
                String at = event.path("timestamp").asText();
                assertPayload(event, "event", "appointment.consultation_requested", "requestId", requestId, "memberId", memberId,
                        "patientName", PATIENT, "patientEmail", email, "prescriberName", PRESCRIBER,
                        "bookingUrl", link.url(), "bookingExpiresAt", link.expiresAt());
                assertEquals(WIRE.format(Instant.parse(at).plus(LINK_VALIDITY)), link.expiresAt(),
                        "a link is valid for seven days from its issue");
                consultationTimes.add(at);
            }
            List<JsonNode> itemConsultations = events(receiver, "item.consultation_requested");
            for (JsonNode event : itemConsultations) {
                assertPayload(event, "event", "item.consultation_requested", "requestId", requestId, "itemId", itemId,
                        "status", "call_requested", "patientName", PATIENT, "prescriptionName", DRUG_NAME);
            }
            assertEquals(consultationTimes.stream().sorted().toList(),
                    itemConsultations.stream().map(event -> event.path("timestamp").asText()).sorted().toList(),
                    "each item.consultation_requested comes with its appointment.consultation_requested");

            // Booked twice, rescheduled, cancelled: each appointment's own times and people.
            JsonNode firstBooked = single(receiver, "appointment.booked", json -> firstId.equals(json.path("appointmentId").asText()));
            assertPayload(firstBooked, "event", "appointment.booked", "requestId", requestId, "memberId", memberId,
                    "appointmentId", firstId, "patientName", PATIENT, "patientEmail", email, "prescriberName", PRESCRIBER,
                    "startTime", booked.startUtc(), "endTime", booked.endUtc(), "timezone", booked.zone(),
                    "durationMinutes", booked.minutes());
            assertEquals(bookedAt, firstBooked.path("timestamp").asText());
            JsonNode moveEvent = single(receiver, "appointment.rescheduled", json -> true);
            assertPayload(moveEvent, "event", "appointment.rescheduled", "requestId", requestId, "memberId", memberId,
                    "appointmentId", firstId, "patientName", PATIENT, "patientEmail", email, "prescriberName", PRESCRIBER,
                    "startTime", moved.startUtc(), "endTime", moved.endUtc(), "timezone", moved.zone(),
                    "durationMinutes", moved.minutes());
            assertEquals(rescheduledAt, moveEvent.path("timestamp").asText());
            JsonNode cancelEvent = single(receiver, "appointment.cancelled", json -> true);
            assertPayload(cancelEvent, "event", "appointment.cancelled", "requestId", requestId, "memberId", memberId,
                    "appointmentId", firstId, "patientName", PATIENT, "patientEmail", email, "prescriberName", PRESCRIBER,
                    "cancelledBy", "patient", "cancellationReason", "Travelling that week");
            assertEquals(cancelledAt, cancelEvent.path("timestamp").asText());
            JsonNode secondBooked = single(receiver, "appointment.booked", json -> secondId.equals(json.path("appointmentId").asText()));
            assertPayload(secondBooked, "event", "appointment.booked", "requestId", requestId, "memberId", memberId,
                    "appointmentId", secondId, "patientName", PATIENT, "patientEmail", email, "prescriberName", PRESCRIBER,
                    "startTime", again.startUtc(), "endTime", again.endUtc(), "timezone", again.zone(),
                    "durationMinutes", again.minutes());
            assertEquals(rebookedAt, secondBooked.path("timestamp").asText());

            // The decision.
            assertPayload(single(receiver, "item.approved", json -> true), "event", "item.approved", "requestId", requestId,
                    "itemId", itemId, "status", "approved", "patientName", PATIENT, "prescriptionName", DRUG_NAME);
            assertPayload(single(receiver, "request.all_approved", json -> true), "event", "request.all_approved",
                    "requestId", requestId, "status", "all_approved", "patientName", PATIENT, "prescriptionName", drugId);

            // No partner read shows a booking token.
            assertNoToken(partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().asString());
            assertNoToken(partner().get("/v1/requests").then().statusCode(200).extract().asString());
            assertNoToken(partner().get("/v1/members/" + memberId).then().statusCode(200).extract().asString());
        }
    }

    /** The console's request-consultation on the item: the link it answers with, its token remembered. */
    private Link requestConsultation(String prescriberId) {
        JsonPath answer = ops().body(Map.of("prescriberId", prescriberId))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/request-consultation")
                .then().statusCode(200)
                .body("request.status", equalTo("call_requested"))
                .body("booking.bookingUrl", matchesPattern(java.util.regex.Pattern.quote(platform.gateway() + "/book/") + "[A-Za-z0-9_-]{32}"))
                .extract().jsonPath();
        String url = answer.getString("booking.bookingUrl");
        String token = url.substring(url.lastIndexOf('/') + 1);
        tokens.add(token);
        return new Link(url, token, answer.getString("booking.bookingExpiresAt"));
    }

    /**
     * The item's status as the partner reads it; each read (the request, as raw text) must not
     * show any booking token issued so far.
     */
    private String itemStatus() {
        String body = partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().asString();
        assertNoToken(body);
        return JsonPath.from(body).getString("lineItems[0].status");
    }

    private void assertNoToken(String partnerRead) {
        for (String token : tokens) {
            assertFalse(partnerRead.contains(token), "a booking token in the partner's read: " + partnerRead);
        }
    }

    /** Every field of the booking side's {@code {appointment}} answer. */
    private void assertAppointment(JsonPath answer, String id, String memberId, String prescriberId, String status, Slot slot,
                                   String cancelledBy, String reason) {
        Map<String, Object> body = answer.getMap("appointment");
        assertEquals(List.of("id", "requestId", "itemId", "memberId", "prescriberId", "status", "startTime", "endTime",
                "durationMinutes", "timezone", "cancelledBy", "cancellationReason", "createdAt", "updatedAt"), List.copyOf(body.keySet()));
        assertEquals(id, body.get("id"));
        assertEquals(requestId, body.get("requestId"));
        assertEquals(itemId, body.get("itemId"));
        assertEquals(memberId, body.get("memberId"));
        assertEquals(prescriberId, body.get("prescriberId"));
        assertEquals(status, body.get("status"));
        assertEquals(slot.startUtc(), body.get("startTime"));
        assertEquals(slot.endUtc(), body.get("endTime"));
        assertEquals(slot.minutes(), body.get("durationMinutes"));
        assertEquals(slot.zone(), body.get("timezone"));
        assertEquals(cancelledBy, body.get("cancelledBy"));
        assertEquals(reason, body.get("cancellationReason"));
        for (String at : List.of("createdAt", "updatedAt")) {
            assertEquals(body.get(at), WIRE.format(Instant.parse((String) body.get(at))), at + " in the wire's format");
        }
    }

    /** The payloads of one event name, in arrival order. */
    private static List<JsonNode> events(WebhookReceiver receiver, String event) {
        return receiver.ofEvent(event).stream().map(Received::json).toList();
    }

    /** The one payload of that event name that {@code match} accepts. */
    private static JsonNode single(WebhookReceiver receiver, String event, Predicate<JsonNode> match) {
        List<JsonNode> matching = events(receiver, event).stream().filter(match).toList();
        assertEquals(1, matching.size(), event + ": " + events(receiver, event));
        return matching.get(0);
    }
}

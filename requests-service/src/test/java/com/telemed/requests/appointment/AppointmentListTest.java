package com.telemed.requests.appointment;

import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /ops/v1/appointments} (interfaces.md D2, issue #41): a prescriber's appointments by start
 * time, the range and its defaults, the prescriber's own scope, the administrator's and the operator
 * key's required {@code prescriberId}, every issue at once, and the one audit entry of a person's read.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class AppointmentListTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String AUDIT = "SELECT actor_type, actor_id, action, target_type, target_id, partner_id FROM audit_entries"
            + " WHERE action = 'appointment.list' AND actor_id = ?";

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;
    String account;
    String prescriber;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        MovableClock.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        account = "acc_" + UUID.randomUUID();
        prescriber = TestServiceProofs.person(account, pending.prescriberId(), "prescriber");
    }

    @AfterEach
    void heal() {
        MovableClock.reset();
        neighbours.reset();
    }

    private static RequestSpecification as(String principal) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal);
    }

    /** A new request of the pending one's member and drug, a consultation on its item, booked at {@code start}. */
    private String booked(PendingRequest of, Instant start, int minutes, String zone) {
        String requestId = RequestFixtures.created(of.partner(), RequestFixtures.prescription(of.memberId(), of.drugId()));
        String itemId = RequestFixtures.get(of.partner(), requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        String url = given().contentType("application/json").body(Map.of("prescriberId", of.prescriberId()))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/request-consultation")
                .then().statusCode(200).extract().path("booking.bookingUrl");
        return AppointmentLifecycleTest.book(url.substring(url.lastIndexOf('/') + 1), start, minutes, zone)
                .then().statusCode(201).extract().path("appointment.id");
    }

    private static Instant in(Duration from) {
        return MovableClock.now().plus(from).truncatedTo(ChronoUnit.SECONDS).plusMillis(123);
    }

    /** {@code {"appointments": [...]}} exactly: each as {@code GET /ops/v1/appointments/{id}} reads it, then its patient's name. */
    private static String expected(String patientName, String... ids) throws Exception {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode appointments = body.putArray("appointments");
        for (String id : ids) {
            ObjectNode appointment = (ObjectNode) JSON.readTree(given().get("/ops/v1/appointments/" + id).then().statusCode(200)
                    .extract().asString()).get("appointment");
            appointment.put("patientName", patientName);
            appointments.add(appointment);
        }
        return JSON.writeValueAsString(body);
    }

    private static Response list(RequestSpecification as, String query) {
        return as.urlEncodingEnabled(false).get("/ops/v1/appointments" + (query.isEmpty() ? "" : "?" + query));
    }

    @Test
    void aPrescriberListsTheirOwnByStartTimeFromNowForThirtyOneDays() throws Exception {
        String later = booked(pending, in(Duration.ofHours(50)), 30, "America/New_York");
        String soon = booked(pending, in(Duration.ofHours(3)), 20, "UTC");
        String cancelled = booked(pending, in(Duration.ofHours(10)), 30, "UTC");
        AppointmentLifecycleTest.call(cancelled, "cancel", Map.of("cancelledBy", "patient", "reason", "Away")).then().statusCode(200);
        String past = booked(pending, in(Duration.ofHours(1)), 30, "UTC");
        String farOff = booked(pending, in(Duration.ofDays(40)), 30, "Europe/Berlin");
        PendingRequest other = PendingRequest.create(neighbours, "Alan", "Turing");
        String othersOwn = booked(other, in(Duration.ofHours(4)), 30, "UTC");

        // Two hours on: the first has ended, the one at three hours is still to come.
        MovableClock.advance(Duration.ofHours(2));
        String body = list(as(prescriber), "").then().statusCode(200).contentType("application/json").extract().asString();
        assertEquals(expected("Grace Hopper", soon, cancelled, later), body);

        // Started and not ended: still listed (it ends after `from`).
        MovableClock.advance(Duration.ofMinutes(65));
        assertEquals(expected("Grace Hopper", soon, cancelled, later), list(as(prescriber), "").then().statusCode(200).extract().asString());
        MovableClock.advance(Duration.ofMinutes(20));
        assertEquals(expected("Grace Hopper", cancelled, later), list(as(prescriber), "").then().statusCode(200).extract().asString());

        // Naming themselves (any case), a range and a limit.
        Instant from = MovableClock.now();
        String to = from.plus(Duration.ofDays(45)).toString();
        assertEquals(expected("Grace Hopper", cancelled, later, farOff),
                list(as(prescriber), "prescriberId=" + pending.prescriberId().toUpperCase() + "&to=" + to).then().statusCode(200)
                        .extract().asString());
        assertEquals(expected("Grace Hopper", cancelled),
                list(as(prescriber), "from=" + from + "&to=" + to + "&limit=1").then().statusCode(200).extract().asString());
        assertEquals(expected("Grace Hopper", farOff),
                list(as(prescriber), "from=" + from.plus(Duration.ofDays(39)).toString().replace("Z", "%2B00:00")
                        + "&to=" + from.plus(Duration.ofDays(41)).toString().replace("Z", "%2B02:00")).then().statusCode(200)
                        .extract().asString());
        assertEquals(expected("Grace Hopper", past),
                list(as(prescriber), "from=" + from.minus(Duration.ofHours(4)) + "&to=" + from.minus(Duration.ofHours(2)))
                        .then().statusCode(200).extract().asString());

        // Another prescriber's: 403, whoever they are; the other prescriber sees only theirs.
        list(as(prescriber), "prescriberId=" + other.prescriberId()).then().statusCode(403)
                .body("", equalTo(Map.of("error", "Prescriber mismatch")));
        list(as(TestServiceProofs.person("acc_" + UUID.randomUUID(), other.prescriberId(), "prescriber")), "")
                .then().statusCode(200).body("appointments.id", equalTo(List.of(othersOwn)))
                .body("appointments[0].patientName", equalTo("Alan Turing"));
    }

    @Test
    void anAdministratorAndTheOperatorKeyNameThePrescriber() throws Exception {
        String soon = booked(pending, in(Duration.ofHours(3)), 20, "UTC");
        String admin = TestServiceProofs.person("acc_" + UUID.randomUUID(), null, "admin");
        Map<String, Object> required = issue("invalid_type", List.of("prescriberId"), "Required",
                "expected", "string", "received", "undefined");
        for (RequestSpecification caller : List.of(as(admin), given())) {
            list(caller, "").then().statusCode(400).contentType("application/json")
                    .body("", equalTo(Map.of("error", List.of(required))));
        }
        list(given(), "prescriberId=").then().statusCode(400).body("", equalTo(Map.of("error", List.of(required))));
        assertEquals(expected("Grace Hopper", soon),
                list(as(admin), "prescriberId=" + pending.prescriberId()).then().statusCode(200).extract().asString());
        assertEquals(expected("Grace Hopper", soon),
                list(given(), "prescriberId=" + pending.prescriberId()).then().statusCode(200).extract().asString());
        // An unknown or malformed prescriber has none.
        for (String unknown : List.of(UUID.randomUUID().toString(), "nope")) {
            list(as(admin), "prescriberId=" + unknown).then().statusCode(200).body("", equalTo(Map.of("appointments", List.of())));
        }
        // An administrator who is a prescriber too: theirs by default, anyone's by name.
        String both = TestServiceProofs.person("acc_" + UUID.randomUUID(), UUID.randomUUID().toString(), "admin", "prescriber");
        list(as(both), "").then().statusCode(200).body("", equalTo(Map.of("appointments", List.of())));
        list(as(both), "prescriberId=" + pending.prescriberId()).then().statusCode(200).body("appointments.id", equalTo(List.of(soon)));
        // Support and a pharmacy may not list.
        list(as(TestServiceProofs.person("acc_" + UUID.randomUUID(), null, "support")), "prescriberId=" + pending.prescriberId())
                .then().statusCode(403).body("", equalTo(Map.of("error", "Forbidden")));
        list(as(TestServiceProofs.pharmacy("ph_" + UUID.randomUUID())), "prescriberId=" + pending.prescriberId())
                .then().statusCode(403).body("", equalTo(Map.of("error", "Forbidden")));
    }

    @Test
    void theQueryIsValidatedWithEveryIssueAtOnce() {
        Instant now = MovableClock.now().truncatedTo(ChronoUnit.MILLIS);
        list(as(prescriber), "from=tomorrow").then().statusCode(400).body("", equalTo(Map.of("error", List.of(
                issue("invalid_string", List.of("from"), "Invalid datetime", "validation", "datetime")))));
        list(as(prescriber), "to=2030-01-01T00:00:00").then().statusCode(400).body("", equalTo(Map.of("error", List.of(
                issue("invalid_string", List.of("to"), "Invalid datetime", "validation", "datetime")))));
        list(as(prescriber), "from=" + now + "&to=" + now).then().statusCode(400).body("", equalTo(Map.of("error", List.of(
                issue("custom", List.of("to"), "to must be after from")))));
        // `from` left out is now.
        list(as(prescriber), "to=" + now.minusSeconds(1)).then().statusCode(400).body("", equalTo(Map.of("error", List.of(
                issue("custom", List.of("to"), "to must be after from")))));
        list(as(prescriber), "from=" + now + "&to=" + now.plus(Duration.ofDays(62))).then().statusCode(200);
        list(as(prescriber), "from=" + now + "&to=" + now.plus(Duration.ofDays(62)).plusMillis(1)).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(issue("custom", List.of("to"), "The range may span at most 62 days")))));
        list(as(prescriber), "from=" + now.plus(Duration.ofDays(100)) + "&to=" + now.plus(Duration.ofDays(163))).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(issue("custom", List.of("to"), "The range may span at most 62 days")))));
        list(as(prescriber), "limit=0").then().statusCode(400).body("", equalTo(Map.of("error", List.of(issue("too_small",
                List.of("limit"), "Number must be greater than or equal to 1",
                "minimum", 1, "type", "number", "inclusive", true, "exact", false)))));
        list(as(prescriber), "limit=201").then().statusCode(400).body("", equalTo(Map.of("error", List.of(issue("too_big",
                List.of("limit"), "Number must be less than or equal to 200",
                "maximum", 200, "type", "number", "inclusive", true, "exact", false)))));
        list(as(prescriber), "limit=200").then().statusCode(200);
        list(as(prescriber), "limit=abc").then().statusCode(400).body("", equalTo(Map.of("error", List.of(issue("invalid_type",
                List.of("limit"), "Expected number, received nan", "expected", "number", "received", "nan")))));
        list(as(prescriber), "prescriberId=" + "p".repeat(101)).then().statusCode(400).body("", equalTo(Map.of("error", List.of(
                issue("too_big", List.of("prescriberId"), "String must contain at most 100 character(s)",
                        "maximum", 100, "type", "string", "inclusive", true, "exact", false)))));
        // Every issue at once, the operator key's missing prescriber first.
        list(given(), "from=nope&to=later&limit=2.5").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("prescriberId"), List.of("from"), List.of("to"), List.of("limit"))));
        // The issues come before the prescriber's scope.
        list(as(prescriber), "prescriberId=" + UUID.randomUUID() + "&limit=0").then().statusCode(400);
    }

    @Test
    void aPersonsListIsOneAuditEntryAndTheOperatorKeysAndARefusedOneNone() {
        list(as(prescriber), "").then().statusCode(200);
        assertEquals(List.of(row("person", account, "appointment.list", "prescriber", pending.prescriberId(), null)), rows(AUDIT, account));
        String admin = "acc_" + UUID.randomUUID();
        list(as(TestServiceProofs.person(admin, null, "admin")), "prescriberId=" + pending.prescriberId()).then().statusCode(200);
        assertEquals(List.of(row("person", admin, "appointment.list", "prescriber", pending.prescriberId(), null)), rows(AUDIT, admin));

        long before = count("SELECT count(*) FROM audit_entries WHERE action = 'appointment.list'");
        list(given(), "prescriberId=" + pending.prescriberId()).then().statusCode(200);
        list(as(prescriber), "limit=0").then().statusCode(400);
        list(as(prescriber), "prescriberId=" + UUID.randomUUID()).then().statusCode(403);
        list(as(TestServiceProofs.person(admin, null, "admin")), "").then().statusCode(400);
        assertEquals(before, count("SELECT count(*) FROM audit_entries WHERE action = 'appointment.list'"));
    }

    private static Map<String, Object> row(String actorType, String actorId, String action, String targetType, String targetId,
                                           String partnerId) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("actor_type", actorType);
        row.put("actor_id", actorId);
        row.put("action", action);
        row.put("target_type", targetType);
        row.put("target_id", targetId);
        row.put("partner_id", partnerId);
        return row;
    }
}

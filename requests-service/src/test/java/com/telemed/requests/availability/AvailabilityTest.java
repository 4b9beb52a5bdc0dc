package com.telemed.requests.availability;

import static com.telemed.requests.availability.AvailabilityFixtures.everyDay;
import static com.telemed.requests.availability.AvailabilityFixtures.hours;
import static com.telemed.requests.availability.AvailabilityFixtures.prescriber;
import static com.telemed.requests.availability.AvailabilityFixtures.put;
import static com.telemed.requests.availability.AvailabilityFixtures.slots;
import static com.telemed.requests.availability.AvailabilityFixtures.weekly;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code PUT}/{@code GET /ops/v1/prescribers/:id/availability} and {@code GET .../slots}
 * (people-and-pages.md, "Availability and slots"): exact answers, every bad body and query as
 * issues, unknown prescribers; the slots of a zone's hours through HTTP. Slots less appointments:
 * {@code appointment.BookingLinkTest}; the arithmetic itself: {@link WeeklyScheduleTest}.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class AvailabilityTest {

    static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";

    @Test
    void theHoursAreSetReadAndReplacedAsAWholeByWeekdayAndStart() {
        String id = prescriber();
        Response set = put(id, hours("America/New_York",
                List.of(weekly(3, "13:00", "17:00"), weekly(1, "12:00", "24:00"), weekly(1, "09:00", "12:00")), 30));
        set.then().statusCode(200)
                .body("availability.updatedAt", matchesPattern(TIMESTAMP));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("prescriberId", id);
        expected.put("timezone", "America/New_York");
        expected.put("weekly", List.of(weekly(1, "09:00", "12:00"), weekly(1, "12:00", "24:00"), weekly(3, "13:00", "17:00")));
        expected.put("slotMinutes", 30);
        expected.put("updatedAt", set.path("availability.updatedAt"));
        assertEquals(Map.of("availability", expected), set.jsonPath().getMap(""));
        given().get("/ops/v1/prescribers/" + id + "/availability").then().statusCode(200)
                .body("", equalTo(Map.of("availability", expected)));

        MovableClock.advance(Duration.ofSeconds(5));
        try {
            Response replaced = put(id, hours("Europe/Berlin", List.of(), 60));
            replaced.then().statusCode(200)
                    .body("availability.timezone", equalTo("Europe/Berlin"))
                    .body("availability.weekly", equalTo(List.of()))
                    .body("availability.slotMinutes", equalTo(60));
            assertNotEquals((String) set.path("availability.updatedAt"), (String) replaced.path("availability.updatedAt"));
            given().get("/ops/v1/prescribers/" + id + "/availability").then().statusCode(200)
                    .body("", equalTo(replaced.jsonPath().getMap("")));
        } finally {
            MovableClock.reset();
        }
        assertEquals(0, count("SELECT count(*) FROM prescriber_weekly_hours WHERE prescriber_id = ?", UUID.fromString(id)));
        assertEquals(1, count("SELECT count(*) FROM prescriber_availability WHERE prescriber_id = ?", UUID.fromString(id)));
    }

    @Test
    void anUnknownPrescriberOrUnsetHoursAreNotFoundAndUnsetHoursGiveNoSlots() {
        Instant from = Instant.now().plus(Duration.ofDays(1));
        for (String unknown : List.of(UUID.randomUUID().toString(), "not-a-uuid")) {
            put(unknown, hours("UTC", everyDay("09:00", "17:00"), 30)).then().statusCode(404)
                    .body("", equalTo(error("Prescriber not found")));
            given().get("/ops/v1/prescribers/" + unknown + "/availability").then().statusCode(404)
                    .body("", equalTo(error("Prescriber not found")));
            slots("/ops/v1/prescribers/" + unknown + "/slots", from, from.plus(Duration.ofDays(1))).then().statusCode(404)
                    .body("", equalTo(error("Prescriber not found")));
        }
        String id = prescriber();
        given().get("/ops/v1/prescribers/" + id + "/availability").then().statusCode(404)
                .body("", equalTo(error("Availability not set")));
        slots("/ops/v1/prescribers/" + id + "/slots", from, from.plus(Duration.ofDays(1))).then().statusCode(200)
                .body("", equalTo(Map.of("slots", List.of())));
    }

    @Test
    void everyIssueOfABadBodyIsAnsweredAtOnceAndNothingIsStored() {
        String id = prescriber();
        put(id, Map.of("timezone", "Mars/Olympus_Mons", "slotMinutes", 25, "weekly", List.of(
                        weekly(0, "9:00", "25:00"), weekly(2, "10:00", "10:00"), weekly(2, "09:00", "12:00"),
                        weekly(2, "11:30", "13:00"), weekly(2, "12:00", "12:30"), weekly(8, "23:59", "24:00"))))
                .then().statusCode(400).body("error", equalTo(List.of(
                        issue("custom", List.of("timezone"), "Invalid timezone"),
                        issue("too_small", List.of("weekly", 0, "weekday"), "Number must be greater than or equal to 1",
                                "minimum", 1, "type", "number", "inclusive", true, "exact", false),
                        issue("invalid_string", List.of("weekly", 0, "start"), "Invalid time", "validation", "regex"),
                        issue("invalid_string", List.of("weekly", 0, "end"), "Invalid time", "validation", "regex"),
                        issue("custom", List.of("weekly", 1, "end"), "end must be after start"),
                        issue("too_big", List.of("weekly", 5, "weekday"), "Number must be less than or equal to 7",
                                "maximum", 7, "type", "number", "inclusive", true, "exact", false),
                        issue("custom", List.of("slotMinutes"), "slotMinutes must be 15, 20, 30, 45 or 60"),
                        issue("custom", List.of("weekly", 3), "Overlaps another interval on the same weekday"),
                        issue("custom", List.of("weekly", 4), "Overlaps another interval on the same weekday"))));
        put(id, Map.of()).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("timezone"), "Required", "expected", "string", "received", "undefined"),
                issue("invalid_type", List.of("weekly"), "Required", "expected", "array", "received", "undefined"),
                issue("invalid_type", List.of("slotMinutes"), "Required", "expected", "number", "received", "undefined"))));
        put(id, Map.of("timezone", "+02:00", "weekly", "mondays", "slotMinutes", 30.5)).then().statusCode(400)
                .body("error", equalTo(List.of(
                        issue("custom", List.of("timezone"), "Invalid timezone"),
                        issue("invalid_type", List.of("weekly"), "Expected array, received string", "expected", "array", "received", "string"),
                        issue("invalid_type", List.of("slotMinutes"), "Expected integer, received float",
                                "expected", "integer", "received", "float"))));
        given().contentType("application/json").body("{\"timezone\": ").put("/ops/v1/prescribers/" + id + "/availability")
                .then().statusCode(400).body("", equalTo(error("Invalid JSON")));
        given().get("/ops/v1/prescribers/" + id + "/availability").then().statusCode(404)
                .body("", equalTo(error("Availability not set")));
        // Intervals that only touch do not overlap; 24:00 ends a day.
        put(id, hours("UTC", List.of(weekly(7, "00:00", "12:00"), weekly(7, "12:00", "24:00"), weekly(1, "00:00", "24:00")), 15))
                .then().statusCode(200);
    }

    @Test
    void aBadRangeIsAnsweredAsIssuesBeforeThePrescriberIsLookedUp() {
        String path = "/ops/v1/prescribers/" + UUID.randomUUID() + "/slots";
        given().get(path).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("from"), "Required", "expected", "string", "received", "undefined"),
                issue("invalid_type", List.of("to"), "Required", "expected", "string", "received", "undefined"))));
        given().queryParam("from", "").queryParam("to", "").get(path).then().statusCode(400).body("error.size()", equalTo(2));
        given().queryParam("from", "yesterday").queryParam("to", "2026-13-01T00:00:00Z").get(path).then().statusCode(400)
                .body("error", equalTo(List.of(
                        issue("invalid_string", List.of("from"), "Invalid datetime", "validation", "datetime"),
                        issue("invalid_string", List.of("to"), "Invalid datetime", "validation", "datetime"))));
        Instant from = Instant.parse("2027-01-04T00:00:00Z");
        slots(path, from, from).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", List.of("to"), "to must be after from"))));
        slots(path, from, from.minusSeconds(1)).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", List.of("to"), "to must be after from"))));
        slots(path, from, from.plus(Duration.ofDays(31)).plusMillis(1)).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", List.of("to"), "The range may span at most 31 days"))));
        // Offsets are read as the instants they name; 31 days exactly is allowed.
        given().queryParam("from", "2027-01-04T01:00:00+01:00").queryParam("to", "2027-02-04T01:00:00+01:00").get(path)
                .then().statusCode(404).body("", equalTo(error("Prescriber not found")));
    }

    @Test
    void theSlotsAreTheHoursInThePrescribersZoneCutIntoSlotsLessThePast() {
        String id = prescriber();
        put(id, hours("Europe/Berlin", everyDay("09:00", "10:30"), 30)).then().statusCode(200);
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        LocalDate day = LocalDate.now(berlin).plusDays(3);
        Instant from = day.atStartOfDay(berlin).toInstant();
        Instant to = day.plusDays(2).atStartOfDay(berlin).toInstant();
        List<Map<String, Object>> expected = new ArrayList<>();
        for (LocalDate date : List.of(day, day.plusDays(1))) {
            for (LocalTime time : List.of(LocalTime.of(9, 0), LocalTime.of(9, 30), LocalTime.of(10, 0))) {
                Instant start = date.atTime(time).atZone(berlin).toInstant();
                expected.add(Map.of("startTime", wire(start), "endTime", wire(start.plus(Duration.ofMinutes(30)))));
            }
        }
        slots("/ops/v1/prescribers/" + id + "/slots", from, to).then().statusCode(200)
                .body("", equalTo(Map.of("slots", expected)));
        // [from, to): a slot starting at `to` is the next range's.
        slots("/ops/v1/prescribers/" + id + "/slots", from, day.atTime(9, 30).atZone(berlin).toInstant()).then().statusCode(200)
                .body("", equalTo(Map.of("slots", expected.subList(0, 1))));

        // A range that began a day ago: only the slots from now on, every quarter hour.
        put(id, hours("UTC", everyDay("00:00", "24:00"), 15)).then().statusCode(200);
        Instant before = MovableClock.now();
        List<String> starts = slots("/ops/v1/prescribers/" + id + "/slots", before.minus(Duration.ofDays(1)), before.plus(Duration.ofHours(1)))
                .then().statusCode(200).extract().path("slots.startTime");
        Instant first = Instant.parse(starts.get(0));
        assertTrue(!first.isBefore(before) && first.isBefore(before.plus(Duration.ofMinutes(16))), before + ": " + starts);
        for (int i = 0; i < starts.size(); i++) {
            assertEquals(wire(first.plus(Duration.ofMinutes(15L * i))), starts.get(i));
        }
        // Four quarter hours in the hour; three when the service's now passed one after the test's.
        assertTrue(starts.size() == 4 || starts.size() == 3, starts.toString());
    }

    private static String wire(Instant instant) {
        return com.telemed.common.json.Timestamps.format(instant);
    }
}

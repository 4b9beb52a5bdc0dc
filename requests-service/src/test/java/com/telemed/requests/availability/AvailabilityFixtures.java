package com.telemed.requests.availability;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Bodies and calls of prescribers' availability and slots (people-and-pages.md, "Availability and slots"). */
public final class AvailabilityFixtures {

    private AvailabilityFixtures() {
    }

    /** A new prescriber's id. */
    public static String prescriber() {
        return given().contentType("application/json")
                .body(Map.of("name", "Dr Okafor", "email", "okafor+" + UUID.randomUUID() + "@example.com"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    public static Response put(String prescriberId, Object body) {
        return given().contentType("application/json").body(body).put("/ops/v1/prescribers/" + prescriberId + "/availability");
    }

    public static Map<String, Object> weekly(int weekday, String start, String end) {
        Map<String, Object> interval = new LinkedHashMap<>();
        interval.put("weekday", weekday);
        interval.put("start", start);
        interval.put("end", end);
        return interval;
    }

    public static Map<String, Object> hours(String zone, List<Map<String, Object>> weekly, int slotMinutes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("timezone", zone);
        body.put("weekly", weekly);
        body.put("slotMinutes", slotMinutes);
        return body;
    }

    /** The same hours on every day of the week. */
    public static List<Map<String, Object>> everyDay(String start, String end) {
        List<Map<String, Object>> weekly = new ArrayList<>();
        for (int weekday = 1; weekday <= 7; weekday++) {
            weekly.add(weekly(weekday, start, end));
        }
        return weekly;
    }

    public static Response slots(String path, Instant from, Instant to) {
        return given().queryParam("from", from.toString()).queryParam("to", to.toString()).get(path);
    }
}

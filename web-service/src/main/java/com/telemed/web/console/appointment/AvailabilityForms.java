package com.telemed.web.console.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The weekly hours' form as requests-service's {@code PUT /ops/v1/prescribers/{id}/availability} body
 * ({@code {timezone, weekly: [{weekday, start, end}], slotMinutes}}), and its issues back onto the form's
 * fields. Values go as typed, so the API's own validation answers: a day with a start or an end is an
 * interval, a day with neither is not working; {@code slotMinutes} a JSON number when it is an integer.
 */
public final class AvailabilityForms {

    public static final List<String> WEEKDAYS = List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");
    public static final List<String> SLOT_MINUTES = List.of("15", "20", "30", "45", "60");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,9}");
    /** A time input with seconds ({@code step} under a minute) sends {@code 09:00:00}: whole minutes are the API's {@code HH:MM}. */
    private static final Pattern WHOLE_MINUTE = Pattern.compile("([0-9]{2}:[0-9]{2}):00");

    /**
     * An interval to the end of the day ends at {@code 24:00}, which a time input cannot hold: the form
     * shows it as {@code 00:00}, and an end of {@code 00:00} (which no interval can otherwise have: the
     * end is after the start) goes back as {@code 24:00}.
     */
    static final String MIDNIGHT = "24:00";
    static final String MIDNIGHT_SHOWN = "00:00";

    private AvailabilityForms() {
    }

    /** The body, and which weekday each of its {@code weekly} entries is (for the issues' paths). */
    public record Put(ObjectNode body, List<Integer> weekdays) {
    }

    public static Put body(MultivaluedMap<String, String> form) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        String timezone = value(form, "timezone").strip();
        if (!timezone.isEmpty()) {
            body.put("timezone", timezone);
        }
        ArrayNode weekly = body.putArray("weekly");
        List<Integer> weekdays = new ArrayList<>();
        for (int day = 1; day <= 7; day++) {
            String start = time(value(form, "start-" + day));
            String end = time(value(form, "end-" + day));
            if (end.equals(MIDNIGHT_SHOWN)) {
                end = MIDNIGHT;
            }
            if (start.isEmpty() && end.isEmpty()) {
                continue;
            }
            weekly.addObject().put("weekday", day).put("start", start).put("end", end);
            weekdays.add(day);
        }
        String slot = value(form, "slotMinutes").strip();
        if (INTEGER.matcher(slot).matches()) {
            body.put("slotMinutes", Integer.parseInt(slot));
        } else if (!slot.isEmpty()) {
            body.put("slotMinutes", slot);
        }
        return new Put(body, weekdays);
    }

    /**
     * Each issue's message by the form field it is about ({@code ["timezone"]}, {@code ["slotMinutes"]},
     * {@code ["weekly", i, "end"]} is {@code end-<weekday of i>}, {@code ["weekly", i]} its start), the
     * first one per field; an issue about no field of the form is kept under {@code ""}.
     */
    public static Map<String, String> errors(List<JsonNode> issues, List<Integer> weekdays) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (JsonNode issue : issues) {
            JsonNode path = issue.path("path");
            String field = "";
            String first = path.isArray() && path.size() >= 1 ? path.get(0).asText() : "";
            if (first.equals("timezone") || first.equals("slotMinutes")) {
                field = first;
            } else if (first.equals("weekly") && path.size() >= 2 && path.get(1).canConvertToInt()
                    && path.get(1).intValue() >= 0 && path.get(1).intValue() < weekdays.size()) {
                int day = weekdays.get(path.get(1).intValue());
                field = (path.size() >= 3 && path.get(2).asText().equals("end") ? "end-" : "start-") + day;
            }
            String message = issue.path("message").asText("");
            errors.putIfAbsent(field, message.isEmpty() ? "Check this value" : message);
        }
        return errors;
    }

    /** A stored end as its time input shows it. */
    static String shownEnd(String end) {
        return MIDNIGHT.equals(end) ? MIDNIGHT_SHOWN : end;
    }

    static String value(MultivaluedMap<String, String> form, String field) {
        String value = form == null ? null : form.getFirst(field);
        return value == null ? "" : value;
    }

    private static String time(String typed) {
        String time = typed.strip();
        java.util.regex.Matcher whole = WHOLE_MINUTE.matcher(time);
        return whole.matches() ? whole.group(1) : time;
    }
}

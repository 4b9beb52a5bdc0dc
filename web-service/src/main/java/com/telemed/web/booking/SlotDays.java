package com.telemed.web.booking;

import com.telemed.web.requests.RequestsApi;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Slots as the patient reads them: grouped by their local day in the chosen zone, each with its local
 * start and end ({@code 09:00 to 09:30}, 24-hour). A slot keeps its instant as the value the form
 * posts back, so no local time is ever parsed again (a fall-back hour's 01:30 is two instants).
 */
final class SlotDays {

    static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEEE d MMMM uuuu", Locale.ENGLISH);
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);

    private SlotDays() {
    }

    /** {@code chosen}: the instant to show checked (the patient's choice when the page comes back), or null. */
    static List<SlotDay> group(List<RequestsApi.Slot> slots, ZoneId zone, String chosen) {
        Map<LocalDate, List<SlotChoice>> days = new LinkedHashMap<>();
        List<RequestsApi.Slot> sorted = new ArrayList<>(slots);
        sorted.sort(Comparator.comparing(RequestsApi.Slot::startTime));
        int n = 0;
        for (RequestsApi.Slot slot : sorted) {
            String value = slot.startTime().toString();
            LocalDate day = slot.startTime().atZone(zone).toLocalDate();
            days.computeIfAbsent(day, ignored -> new ArrayList<>())
                    .add(new SlotChoice("slot-" + n++, value, range(slot.startTime(), slot.endTime(), zone), value.equals(chosen)));
        }
        List<SlotDay> grouped = new ArrayList<>();
        days.forEach((day, choices) -> grouped.add(new SlotDay(DAY.format(day), choices)));
        return grouped;
    }

    /**
     * {@code 09:00 to 09:30}; where a daylight-saving change makes the local times alone ambiguous (a
     * range across the change, a time of a fall-back's repeated hour) each carries its offset:
     * {@code 02:30 (UTC+02:00) to 02:00 (UTC+01:00)}.
     */
    static String range(Instant start, Instant end, ZoneId zone) {
        ZonedDateTime from = start.atZone(zone);
        ZonedDateTime to = end.atZone(zone);
        boolean ambiguous = !from.getOffset().equals(to.getOffset()) || repeated(from) || repeated(to);
        return time(from, ambiguous) + " to " + time(to, ambiguous);
    }

    private static boolean repeated(ZonedDateTime time) {
        return time.getZone().getRules().getValidOffsets(time.toLocalDateTime()).size() > 1;
    }

    private static String time(ZonedDateTime time, boolean withOffset) {
        if (!withOffset) {
            return TIME.format(time);
        }
        String offset = time.getOffset().getId();
        return TIME.format(time) + " (UTC" + (offset.equals("Z") ? "" : offset) + ")";
    }

    /** One local day: {@code Tuesday 1 December 2026} and its slots in order. */
    public record SlotDay(String heading, List<SlotChoice> slots) {
    }

    /** One slot: the radio's id, the instant it posts, its local times, whether it is checked. */
    public record SlotChoice(String id, String value, String label, boolean checked) {
    }
}

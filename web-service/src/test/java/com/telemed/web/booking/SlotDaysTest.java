package com.telemed.web.booking;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.web.requests.RequestsApi;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Slots by local day, in both directions of a daylight-saving change, and the zone list. */
class SlotDaysTest {

    static RequestsApi.Slot slot(String start, String end) {
        return new RequestsApi.Slot(Instant.parse(start), Instant.parse(end));
    }

    static List<String> labels(List<SlotDays.SlotDay> days) {
        return days.stream().flatMap(day -> day.slots().stream().map(slot -> day.heading() + " " + slot.label())).toList();
    }

    @Test
    void fallBackShowsTheRepeatedHourTwiceInTheOrderOfTime() {
        // Europe/Berlin leaves CEST (+2) for CET (+1) on 2030-10-27 at 01:00 UTC: 02:00-03:00 local happens twice.
        List<RequestsApi.Slot> slots = List.of(
                slot("2030-10-27T01:30:00Z", "2030-10-27T02:00:00Z"),   // 02:30 CET, the second
                slot("2030-10-27T00:30:00Z", "2030-10-27T01:00:00Z"),   // 02:30 CEST, the first
                slot("2030-10-26T22:00:00Z", "2030-10-26T22:30:00Z"));  // Sunday 00:00 CEST
        List<SlotDays.SlotDay> days = SlotDays.group(slots, ZoneId.of("Europe/Berlin"), "2030-10-27T01:30:00Z");
        assertEquals(List.of("Sunday 27 October 2030 00:00 to 00:30",
                "Sunday 27 October 2030 02:30 (UTC+02:00) to 02:00 (UTC+01:00)",
                "Sunday 27 October 2030 02:30 (UTC+01:00) to 03:00 (UTC+01:00)"), labels(days));
        assertEquals(List.of("2030-10-26T22:00:00Z", "2030-10-27T00:30:00Z", "2030-10-27T01:30:00Z"),
                days.get(0).slots().stream().map(SlotDays.SlotChoice::value).toList());
        assertEquals(List.of(false, false, true), days.get(0).slots().stream().map(SlotDays.SlotChoice::checked).toList());
        assertEquals(List.of("slot-0", "slot-1", "slot-2"), days.get(0).slots().stream().map(SlotDays.SlotChoice::id).toList());
        // The same instants in UTC: Saturday and Sunday.
        assertEquals(List.of("Saturday 26 October 2030 22:00 to 22:30", "Sunday 27 October 2030 00:30 to 01:00",
                "Sunday 27 October 2030 01:30 to 02:00"), labels(SlotDays.group(slots, ZoneId.of("UTC"), null)));
    }

    @Test
    void aPrescriberInNewYorkAndAPatientInBerlinBetweenTheirTwoChanges() {
        // New York is on EDT from 2030-03-10, Berlin still on CET until 2030-03-31: six hours apart becomes five.
        List<RequestsApi.Slot> slots = List.of(slot("2030-03-08T14:00:00Z", "2030-03-08T14:30:00Z"),
                slot("2030-03-15T13:00:00Z", "2030-03-15T13:30:00Z"), slot("2030-04-01T13:00:00Z", "2030-04-01T13:30:00Z"));
        assertEquals(List.of("Friday 8 March 2030 09:00 to 09:30", "Friday 15 March 2030 09:00 to 09:30",
                "Monday 1 April 2030 09:00 to 09:30"), labels(SlotDays.group(slots, ZoneId.of("America/New_York"), null)));
        assertEquals(List.of("Friday 8 March 2030 15:00 to 15:30", "Friday 15 March 2030 14:00 to 14:30",
                "Monday 1 April 2030 15:00 to 15:30"), labels(SlotDays.group(slots, ZoneId.of("Europe/Berlin"), null)));
    }

    @Test
    void theZoneList() {
        assertEquals("UTC", TimeZones.valid(null));
        assertEquals("UTC", TimeZones.valid("+02:00"));
        assertEquals("UTC", TimeZones.valid("europe/berlin"));
        assertEquals("Europe/Berlin", TimeZones.valid("Europe/Berlin"));
        List<TimeZones.ZoneOption> options = TimeZones.options("Asia/Kathmandu");
        assertEquals("UTC", options.get(0).id());
        assertEquals(TimeZones.COMMON.size() + 1, options.size());
        assertEquals(List.of("Asia/Kathmandu"), options.stream().filter(TimeZones.ZoneOption::selected).map(TimeZones.ZoneOption::id).toList());
        assertEquals(TimeZones.COMMON.size(), TimeZones.options("Europe/Berlin").size());
        assertEquals("America/New York", TimeZones.label("America/New_York"));
        TimeZones.COMMON.forEach(id -> assertEquals(id, TimeZones.valid(id), "every common zone is one the JDK knows"));
    }
}

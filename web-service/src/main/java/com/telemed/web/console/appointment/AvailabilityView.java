package com.telemed.web.console.appointment;

import java.util.List;

/**
 * The weekly hours' form ({@code console-availability.html}): the zone, a start and an end per weekday
 * (empty: not working), the slot length; what is stored, or what was typed with the gateway's issues
 * next to their fields after a refusal.
 *
 * @param notice {@code Saved} after a save, or null
 * @param error  a refusal about no field, or null
 * @param note   a warning that the stored hours hold more than one interval on a day, or null
 * @param unset  no hours stored yet
 */
public record AvailabilityView(String notice, String error, String note, boolean unset, Field timezone, List<Day> days,
                               Field slotMinutes, List<Option> slotOptions, String csrf) {

    /** Whether any field, or the form, carries an issue ({@code Error:} in the title). */
    public boolean hasErrors() {
        return error != null || timezone.error() != null || slotMinutes.error() != null
                || days.stream().anyMatch(day -> day.start().error() != null || day.end().error() != null);
    }

    /** A weekday ({@code 1} Monday to {@code 7} Sunday) and its two time fields. */
    public record Day(int weekday, String name, Field start, Field end) {

        public List<Field> fields() {
            return List.of(start, end);
        }
    }

    /** A field: {@code name} as posted and its id, its label, its value, the gateway's issue or null. */
    public record Field(String name, String label, String value, String error) {

        public String id() {
            return name;
        }

        public String errorId() {
            return "error-" + name;
        }
    }

    public record Option(String value, boolean selected) {
    }
}

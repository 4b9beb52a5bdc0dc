package com.telemed.requests.availability;

import java.util.List;

/** A validated {@code PUT /ops/v1/prescribers/:id/availability} body ({@link AvailabilitySchemas#PUT}). */
public record AvailabilityInput(String timezone, List<Weekly> weekly, int slotMinutes) {

    /** {@code {weekday, start, end}}: an ISO weekday, {@code "HH:MM"} and {@code "HH:MM"} or {@code "24:00"}. */
    public record Weekly(int weekday, String start, String end) {

        WeeklyInterval interval() {
            return new WeeklyInterval(weekday, WeeklyInterval.minutes(start), WeeklyInterval.minutes(end));
        }
    }
}

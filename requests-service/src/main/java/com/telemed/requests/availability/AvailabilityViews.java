package com.telemed.requests.availability;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** What the availability calls answer. */
public final class AvailabilityViews {

    private AvailabilityViews() {
    }

    /** {@code {availability: {prescriberId, timezone, weekly, slotMinutes, updatedAt}}}; {@code weekly} by weekday and start. */
    public record Envelope(Body availability) {
    }

    @JsonPropertyOrder({"prescriberId", "timezone", "weekly", "slotMinutes", "updatedAt"})
    public record Body(UUID prescriberId, String timezone, List<Weekly> weekly, int slotMinutes, Instant updatedAt) {
    }

    @JsonPropertyOrder({"weekday", "start", "end"})
    public record Weekly(int weekday, String start, String end) {

        static Weekly of(WeeklyInterval interval) {
            return new Weekly(interval.weekday(), WeeklyInterval.hhmm(interval.startMinute()), WeeklyInterval.hhmm(interval.endMinute()));
        }
    }

    /** {@code {slots: [{startTime, endTime}]}}, sorted by start. */
    public record Slots(List<TimeSpan> slots) {
    }

    static Envelope of(PrescriberAvailability availability, List<WeeklyInterval> weekly) {
        return new Envelope(new Body(availability.prescriberId, availability.timezone, weekly.stream().map(Weekly::of).toList(),
                availability.slotMinutes, availability.updatedAt));
    }
}

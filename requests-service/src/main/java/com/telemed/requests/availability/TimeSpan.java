package com.telemed.requests.availability;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;

/**
 * A half-open span of real time, {@code [startTime, endTime)}: a slot on the wire
 * ({@code {"startTime", "endTime"}}, UTC), or the time a booked appointment takes.
 */
@JsonPropertyOrder({"startTime", "endTime"})
public record TimeSpan(Instant startTime, Instant endTime) {

    /** Whether the two share a moment; spans that only touch (one ends as the other starts) do not. */
    public boolean overlaps(TimeSpan other) {
        return startTime.isBefore(other.endTime) && other.startTime.isBefore(endTime);
    }
}

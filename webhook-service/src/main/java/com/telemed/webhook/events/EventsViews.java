package com.telemed.webhook.events;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Wire shapes of the events API (partner-extensions.md, Events). */
public final class EventsViews {

    private EventsViews() {
    }

    /**
     * {@code status}: {@code delivered}, {@code retrying}, {@code failed} (the delivery's), or
     * {@code not_sent} (no delivery: no URL was set); {@code lastAttemptAt} null before any attempt.
     */
    public record Delivery(String status, int attempts, Instant lastAttemptAt) {
    }

    /** {@code data} is the webhook body exactly as sent (its JSON text written as is). */
    public record Event(UUID id, String type, Instant createdAt, @JsonRawValue String data, Delivery delivery) {

        @Override
        public String toString() {
            // Never the body: it can name a patient.
            return "Event[" + id + "]";
        }
    }

    /** {@code nextCursor}: the last event's id, {@code after} itself when none came back (null without one). */
    public record Page(List<Event> events, String nextCursor, boolean hasMore) {
    }

    public record EventEnvelope(Event event) {
    }

    /** {@code 202} of a redelivery and of a test event. */
    public record Accepted(UUID eventId) {
    }
}

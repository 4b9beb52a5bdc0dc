package com.telemed.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.json.Timestamps;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * The versioned contract every event on Kafka carries, exactly the architecture's keys:
 * {@code { id, type, partnerId, occurredAt, subject, data, webhook }}. Events are built from
 * this record, never from an entity, so a schema change inside a service cannot leak onto the wire.
 * Consumers deduplicate on {@code id}: the outbox delivers at least once.
 *
 * @param webhook the exact partner payload, or null for internal-only events (always written,
 *                as {@code null}, so consumers see an explicit "no webhook")
 */
@JsonPropertyOrder({"id", "type", "partnerId", "occurredAt", "subject", "data", "webhook"})
public record EventEnvelope(
        String id,
        String type,
        String partnerId,
        Instant occurredAt,
        EventSubject subject,
        JsonNode data,
        @JsonInclude(JsonInclude.Include.ALWAYS) JsonNode webhook) {

    public EventEnvelope {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(data, "data");
    }

    /** A new event with a fresh id, occurring now at the wire's millisecond precision. */
    public static EventEnvelope create(String type, String partnerId, EventSubject subject, JsonNode data, JsonNode webhook) {
        return new EventEnvelope(UUID.randomUUID().toString(), type, partnerId, Timestamps.now(), subject, data, webhook);
    }
}

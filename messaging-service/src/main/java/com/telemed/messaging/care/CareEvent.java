package com.telemed.messaging.care;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.time.Instant;
import java.util.UUID;

/**
 * What messaging reads of a {@code care.events} envelope (requests-service's
 * {@code request.RequestEvents}): its id, type, partner and time, whom it is about, the history action
 * of a legacy denial, and the drug's display name from the partner payload.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CareEvent(UUID id, String type, String partnerId, Instant occurredAt, Subject subject, Data data, Webhook webhook) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Subject(UUID memberId, UUID prescriberId) {
    }

    /** {@code action}: {@code completed_without_rx} on the denial that ends a visit without a prescription. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Data(String action) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Webhook(String prescriptionName) {
    }
}

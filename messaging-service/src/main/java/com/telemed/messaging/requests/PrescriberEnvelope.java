package com.telemed.messaging.requests;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.UUID;

/** {@code GET /internal/prescribers/:id}. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PrescriberEnvelope(Prescriber prescriber) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Prescriber(UUID id, String name, String email) {
    }
}

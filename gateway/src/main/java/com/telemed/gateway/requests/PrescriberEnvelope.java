package com.telemed.gateway.requests;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.UUID;

/** {@code GET /internal/prescribers/:id}: only the id is read (a name or email is none of the gateway's business here). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PrescriberEnvelope(Prescriber prescriber) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Prescriber(UUID id) {
    }
}

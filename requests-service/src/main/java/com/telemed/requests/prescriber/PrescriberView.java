package com.telemed.requests.prescriber;

import java.time.Instant;
import java.util.UUID;

/** A prescriber on the wire: exactly {@code id, name, email, createdAt}. */
public record PrescriberView(UUID id, String name, String email, Instant createdAt) {

    static PrescriberView of(Prescriber prescriber) {
        return new PrescriberView(prescriber.id, prescriber.name, prescriber.email, prescriber.createdAt);
    }
}

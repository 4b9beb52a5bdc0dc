package com.telemed.messaging.requests;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** {@code GET /internal/requests/by-member}: the member's requests, newest first. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberRequests(List<Assignment> requests) {

    /** One request: its prescriber (null until one picked it up or acted) and stored status. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Assignment(UUID id, UUID prescriberId, String status, Instant createdAt) {
    }
}

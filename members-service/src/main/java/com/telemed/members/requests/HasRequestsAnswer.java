package com.telemed.members.requests;

/** Answer of {@code GET /internal/requests/has-requests}: {@code {"hasRequests": true|false}}. */
public record HasRequestsAnswer(Boolean hasRequests) {
}

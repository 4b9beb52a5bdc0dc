package com.telemed.members.requests;

/**
 * Answer of {@code POST /internal/requests/member-deletions}: {@code {"hasRequests": true|false}}; {@code false}
 * means requests-service agreed to the delete.
 */
public record HasRequestsAnswer(Boolean hasRequests) {
}

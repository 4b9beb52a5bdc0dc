package com.telemed.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What an event is about. Only the keys that apply are written: a member event carries
 * {@code {"memberId": ...}} alone, not three nulls beside it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"requestId", "itemId", "memberId", "prescriberId", "drugId"})
public record EventSubject(String requestId, String itemId, String memberId, String prescriberId, String drugId) {

    public static EventSubject member(String memberId) {
        return new EventSubject(null, null, memberId, null, null);
    }

    /** A catalogue drug ({@code catalogue.drug_changed}). */
    public static EventSubject drug(String drugId) {
        return new EventSubject(null, null, null, null, drugId);
    }

    public static EventSubject request(String requestId) {
        return new EventSubject(requestId, null, null, null, null);
    }

    public static EventSubject item(String requestId, String itemId) {
        return new EventSubject(requestId, itemId, null, null, null);
    }

    public EventSubject withMember(String memberId) {
        return new EventSubject(requestId, itemId, memberId, prescriberId, drugId);
    }

    public EventSubject withPrescriber(String prescriberId) {
        return new EventSubject(requestId, itemId, memberId, prescriberId, drugId);
    }
}

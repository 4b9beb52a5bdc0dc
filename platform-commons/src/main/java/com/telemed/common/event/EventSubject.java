package com.telemed.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What an event is about. Only the keys that apply are written: a member event carries
 * {@code {"memberId": ...}} alone, not three nulls beside it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"requestId", "itemId", "memberId", "prescriberId"})
public record EventSubject(String requestId, String itemId, String memberId, String prescriberId) {

    public static EventSubject member(String memberId) {
        return new EventSubject(null, null, memberId, null);
    }

    public static EventSubject request(String requestId) {
        return new EventSubject(requestId, null, null, null);
    }

    public static EventSubject item(String requestId, String itemId) {
        return new EventSubject(requestId, itemId, null, null);
    }

    public EventSubject withMember(String memberId) {
        return new EventSubject(requestId, itemId, memberId, prescriberId);
    }

    public EventSubject withPrescriber(String prescriberId) {
        return new EventSubject(requestId, itemId, memberId, prescriberId);
    }
}

package com.telemed.members.requests;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** Body of {@code POST /internal/requests/member-deletions}: {@code {"partnerId": "...", "memberId": "..."}}. */
@JsonPropertyOrder({"partnerId", "memberId"})
public record MemberDeletionQuery(String partnerId, String memberId) {
}

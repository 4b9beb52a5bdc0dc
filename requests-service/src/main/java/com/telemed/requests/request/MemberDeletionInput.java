package com.telemed.requests.request;

/** {@code POST /internal/requests/member-deletions}, bound after {@link InternalRequestResource#MEMBER_QUERY}. */
public record MemberDeletionInput(String partnerId, String memberId) {
}

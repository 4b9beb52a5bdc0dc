package com.telemed.requests.request;

/** {@code POST /internal/requests/member-fences}, bound after {@link InternalRequestResource#MEMBER_FENCE}. */
public record MemberFenceInput(String partnerId, String memberId, long version) {
}

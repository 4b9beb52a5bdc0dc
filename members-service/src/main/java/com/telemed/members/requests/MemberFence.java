package com.telemed.members.requests;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Body of {@code POST /internal/requests/member-fences}:
 * {@code {"partnerId": "...", "memberId": "<uuid>", "version": n}}: requests-service's copy of the
 * member is not valid below {@code version} from now on. Sent before an update to that version
 * commits; requests-service keeps the highest fence per member, so repeating one changes nothing.
 */
@JsonPropertyOrder({"partnerId", "memberId", "version"})
public record MemberFence(String partnerId, String memberId, long version) {
}

package com.telemed.members.member;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What members-service needs to know about a member's requests, which belong to
 * requests-service. Answered by {@code requests.RequestsServiceClient}; an implementation that
 * cannot answer throws {@code ApiException(503, "Service Unavailable")} rather than guess,
 * because a guessed "no requests" could let a member with requests be deleted or shown without them.
 */
public interface MemberRequests {

    /**
     * The summaries of each member's requests, newest first, for members of this partner, in one
     * call for all of them (a page of members is one call, never one per member). A member
     * missing from the map has no requests.
     */
    Map<UUID, List<RequestSummary>> forMembers(String partnerId, Collection<UUID> memberIds);

    default List<RequestSummary> forMember(String partnerId, UUID memberId) {
        return forMembers(partnerId, List.of(memberId)).getOrDefault(memberId, List.of());
    }

    /** Whether the member has any request at all (cancelled and denied ones count). */
    boolean hasRequests(String partnerId, UUID memberId);
}

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

    /**
     * Asks requests-service to agree to the member's delete. {@code false}: the member has
     * requests (cancelled and denied ones count) and must be kept. {@code true}: it has none, and
     * requests-service will create none for it from now on, so the delete can go ahead without
     * any lock held between the services (README, "Delete").
     */
    boolean agreeToDelete(String partnerId, UUID memberId);
}

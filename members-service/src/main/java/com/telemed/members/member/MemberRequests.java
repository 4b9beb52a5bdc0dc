package com.telemed.members.member;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What members-service needs to know about a member's requests, which belong to
 * requests-service, and what it must tell requests-service about a member (its fences).
 * Answered by {@code requests.RequestsServiceClient}; an implementation that cannot answer throws
 * {@code ApiException(503, "Service Unavailable")} rather than guess, because a guessed "no
 * requests" could let a member with requests be deleted or shown without them, and an untold
 * update could leave requests-service creating requests from a stale copy of the member.
 */
public interface MemberRequests {

    /**
     * {@code requests} on each member of {@code GET /v1/members}: the newest 10. A page is up to
     * 100 members, each summary carries its {@code caseNotes} (up to 10,000 characters), so the
     * list asks for what it shows and no more (README, "Request summaries").
     */
    int LIST_PER_MEMBER = 10;

    /** {@code requests} on {@code GET /v1/members/:id}: the newest 100, requests-service's most per member. */
    int READ_PER_MEMBER = 100;

    /**
     * The newest {@code perMember} summaries of each member's requests, newest first, for members
     * of this partner, in one call for all of them (a page of members is one call, never one per
     * member). A member missing from the map has no requests.
     */
    Map<UUID, List<RequestSummary>> forMembers(String partnerId, Collection<UUID> memberIds, int perMember);

    default List<RequestSummary> forMember(String partnerId, UUID memberId) {
        return forMembers(partnerId, List.of(memberId), READ_PER_MEMBER).getOrDefault(memberId, List.of());
    }

    /**
     * Asks requests-service to agree to the member's delete. {@code false}: the member has
     * requests (cancelled and denied ones count) and must be kept. {@code true}: it has none, and
     * requests-service will create none for it from now on, so the delete can go ahead without
     * any lock held between the services (README, "Delete").
     */
    boolean agreeToDelete(String partnerId, UUID memberId);

    /**
     * Tells requests-service that its copy of the member is not valid below {@code version}, before
     * an update to that version commits here (README, "Version and fence"): from the answer on, it
     * reads the member here rather than use an older copy. Returns once requests-service took the
     * fence; it keeps the highest one, so a repeated or out-of-date fence changes nothing.
     */
    void fence(String partnerId, UUID memberId, long version);
}

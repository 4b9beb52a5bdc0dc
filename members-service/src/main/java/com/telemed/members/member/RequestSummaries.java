package com.telemed.members.member;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * SEAM: the request summaries shown on member reads. Requests belong to requests-service; until
 * that lookup exists, {@link NoRequestSummaries} answers every member with an empty list.
 * Replace it with a client of requests-service (one batched call per page of members).
 */
public interface RequestSummaries {

    /**
     * The summaries of each member's requests, newest first, for members of this partner. A
     * member missing from the map has no requests.
     */
    Map<UUID, List<RequestSummary>> forMembers(String partnerId, Collection<UUID> memberIds);

    default List<RequestSummary> forMember(String partnerId, UUID memberId) {
        return forMembers(partnerId, List.of(memberId)).getOrDefault(memberId, List.of());
    }
}

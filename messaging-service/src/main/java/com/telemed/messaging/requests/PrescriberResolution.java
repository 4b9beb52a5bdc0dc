package com.telemed.messaging.requests;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The member's current prescriber, from their requests (partner-api.md, {@code POST
 * /v1/messages/conversations/for-member}). Among the requests that have a prescriber, newest first:
 * (1) the prescriber of the newest whose stored status is not denied or cancelled; (2) when every
 * one of them is denied or cancelled, the prescriber of the newest of those; (3) none when no
 * request ever had a prescriber.
 */
public final class PrescriberResolution {

    private static final Set<String> CLOSED = Set.of("denied", "cancelled");

    private PrescriberResolution() {
    }

    public static Optional<UUID> currentPrescriber(List<MemberRequests.Assignment> requests) {
        List<MemberRequests.Assignment> assigned = requests.stream()
                .filter(request -> request.prescriberId() != null)
                .sorted(Comparator.comparing(MemberRequests.Assignment::createdAt, Comparator.nullsLast(Comparator.reverseOrder())))
                .toList();
        return assigned.stream()
                .filter(request -> !CLOSED.contains(request.status()))
                .findFirst()
                .or(() -> assigned.stream().findFirst())
                .map(MemberRequests.Assignment::prescriberId);
    }
}

package com.telemed.messaging.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The three rules of prescriber resolution, on requests in any order. */
class PrescriberResolutionTest {

    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();
    private static final UUID C = UUID.randomUUID();
    private static final Instant T = Instant.parse("2026-11-24T10:00:00Z");

    private static MemberRequests.Assignment request(int minute, UUID prescriber, String status) {
        return new MemberRequests.Assignment(UUID.randomUUID(), prescriber, status, T.plusSeconds(60L * minute));
    }

    private static Optional<UUID> resolve(MemberRequests.Assignment... requests) {
        List<MemberRequests.Assignment> shuffled = new ArrayList<>(List.of(requests));
        java.util.Collections.reverse(shuffled);
        assertEquals(PrescriberResolution.currentPrescriber(List.of(requests)), PrescriberResolution.currentPrescriber(shuffled));
        return PrescriberResolution.currentPrescriber(List.of(requests));
    }

    @Test
    void theNewestRequestThatIsNotDeniedOrCancelledWins() {
        assertEquals(Optional.of(B), resolve(request(1, A, "approved"), request(2, B, "pending"), request(3, C, "denied"),
                request(4, null, "pending")));
        assertEquals(Optional.of(A), resolve(request(1, A, "partial"), request(2, B, "cancelled")));
        assertEquals(Optional.of(C), resolve(request(1, A, "pending"), request(2, B, "completed"), request(3, C, "approved")));
    }

    @Test
    void whenEveryAssignedRequestIsClosedTheNewestOfThemWins() {
        assertEquals(Optional.of(B), resolve(request(1, A, "denied"), request(2, B, "cancelled"), request(3, null, "pending")));
    }

    @Test
    void noRequestWithAPrescriberMeansNone() {
        assertEquals(Optional.empty(), resolve());
        assertEquals(Optional.empty(), resolve(request(1, null, "pending"), request(2, null, "denied")));
    }
}

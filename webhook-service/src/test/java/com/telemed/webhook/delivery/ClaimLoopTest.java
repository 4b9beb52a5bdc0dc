package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** One claim round ({@link ClaimLoop#pollOnce}) against a store without a database. No Quarkus. */
class ClaimLoopTest {

    private static final Duration POLL = Duration.ofHours(1);
    private static final Duration LEASE = Duration.ofSeconds(60);

    private final FakeDeliveryStore store = new FakeDeliveryStore(new RetryPolicy(List.of()));
    private final List<List<Job>> handedOut = new CopyOnWriteArrayList<>();

    private static List<Job> jobs(String partnerId, int count) {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(Job.signed(UUID.randomUUID(), partnerId, "http://127.0.0.1/", "{}", "1700000000", "sha256=00", 0));
        }
        return jobs;
    }

    private static PartnerSlots slots(int maxInFlightPerPartner, int maxQueuedPerPartner, int maxQueued) {
        PartnerSlots slots = new PartnerSlots(maxInFlightPerPartner, 256, maxQueuedPerPartner, maxQueued);
        slots.open();
        return slots;
    }

    private ClaimLoop loop(PartnerSlots slots, int claimBatch, Duration lease) {
        return new ClaimLoop(store, slots, jobs -> {
            handedOut.add(jobs);
            slots.admit(jobs);
        }, POLL, claimBatch, lease);
    }

    @Test
    void claimsAgainWhileFullBatchesComeBackAndThenClearsTheBacklog() throws Exception {
        PartnerSlots slots = slots(100, 1000, 5000);
        ClaimLoop loop = loop(slots, 10, LEASE);
        List<List<Job>> answers = new ArrayList<>(List.of(jobs("p", 10), jobs("p", 10), jobs("p", 3)));
        store.answering((limit, leftOut) -> answers.remove(0));
        assertTrue(loop.backlog(), "a start assumes the database may hold deliveries");

        loop.pollOnce();

        assertEquals(3, store.claims.size(), "two full batches, then a short one");
        assertEquals(3, handedOut.size());
        assertFalse(loop.backlog(), "nothing more is due");
    }

    @Test
    void aClaimTakesNoMoreThanTheFreePlacesAndLeavesFullPartnersOut() throws Exception {
        PartnerSlots slots = slots(1, 2, 10);
        slots.admit(jobs("full", 3));
        ClaimLoop loop = loop(slots, 200, LEASE);

        loop.pollOnce();

        assertEquals(List.of(new FakeDeliveryStore.Claim(10 - 2, List.of("full"))), store.claims);
        assertTrue(handedOut.isEmpty());
    }

    @Test
    void noFreePlaceNoClaim() throws Exception {
        PartnerSlots slots = slots(1, 5, 2);
        slots.admit(jobs("p", 3));
        ClaimLoop loop = loop(slots, 200, LEASE);

        loop.pollOnce();

        assertTrue(store.claims.isEmpty());
    }

    /** Room made (or deliveries given back) while a claim ran: the claim may have missed them, the backlog stays. */
    @Test
    void aMarkDuringAShortClaimKeepsTheBacklog() throws Exception {
        PartnerSlots slots = slots(100, 1000, 5000);
        ClaimLoop[] loop = new ClaimLoop[1];
        loop[0] = loop(slots, 10, LEASE);
        store.answering((limit, leftOut) -> {
            loop[0].markBacklog();
            return jobs("p", 1);
        });

        loop[0].pollOnce();

        assertTrue(loop[0].backlog());
    }

    @Test
    void heldLeasesAreRenewedEveryThirdOfTheLease() throws Exception {
        PartnerSlots slots = slots(1, 10, 100);
        List<Job> held = jobs("p", 2);
        slots.admit(held);

        loop(slots, 10, LEASE).pollOnce();
        assertTrue(store.renewed.isEmpty(), "not due yet");

        loop(slots, 10, Duration.ofNanos(3)).pollOnce();
        assertEquals(1, store.renewed.size());
        assertEquals(Set.of(held.get(0).id(), held.get(1).id()), Set.copyOf(store.renewed.get(0)));
    }

    @Test
    void aGiveBackThatFailsIsLoggedNotThrown() {
        PartnerSlots slots = slots(1, 10, 100);
        ClaimLoop loop = loop(slots, 10, LEASE);
        store.failing.set(1);
        UUID id = UUID.randomUUID();

        assertDoesNotThrow(() -> loop.giveBack(List.of(id)));
        loop.giveBack(List.of(id));

        assertEquals(List.of(List.of(id)), store.released, "the second one went through");
    }
}

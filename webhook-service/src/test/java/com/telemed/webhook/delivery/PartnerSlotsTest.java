package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The slot book alone: bounds, queues, fairness between partners, held deliveries. No Quarkus, no database. */
class PartnerSlotsTest {

    private static Job job(String partnerId) {
        return Job.signed(UUID.randomUUID(), partnerId, "http://127.0.0.1/", "{}", "1700000000", "sha256=00", 0);
    }

    private static List<Job> jobs(String partnerId, int count) {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(job(partnerId));
        }
        return jobs;
    }

    private static PartnerSlots open(int maxInFlightPerPartner, int maxInFlight, int maxQueuedPerPartner, int maxQueued) {
        PartnerSlots slots = new PartnerSlots(maxInFlightPerPartner, maxInFlight, maxQueuedPerPartner, maxQueued);
        slots.open();
        return slots;
    }

    @Test
    void aPartnerGetsItsSlotsThenWaitsInItsQueueThenIsGivenBack() {
        PartnerSlots slots = open(2, 10, 3, 100);
        List<Job> burst = jobs("p", 6);

        PartnerSlots.Admitted admitted = slots.admit(burst);

        assertEquals(burst.subList(0, 2), admitted.start());
        assertEquals(burst.subList(2, 5), admitted.queued());
        assertEquals(burst.subList(5, 6), admitted.refused());
        assertEquals(2, slots.inFlight("p"));
        assertEquals(3, slots.queued("p"));
        assertEquals(Set.copyOf(ids(burst.subList(0, 5))), Set.copyOf(slots.held()), "started and waiting ones are held");
    }

    @Test
    void theReplicaBoundAppliesAcrossPartners() {
        PartnerSlots slots = open(8, 3, 10, 100);
        Job a1 = job("a");
        Job a2 = job("a");
        Job b1 = job("b");
        Job b2 = job("b");

        PartnerSlots.Admitted admitted = slots.admit(List.of(a1, a2, b1, b2));

        assertEquals(List.of(a1, a2, b1), admitted.start());
        assertEquals(List.of(b2), admitted.queued());
        assertEquals(3, slots.inFlight());
    }

    @Test
    void theQueueBoundInAllGivesBackWhatNoPartnersQueueCanHold() {
        PartnerSlots slots = open(1, 10, 5, 2);
        PartnerSlots.Admitted admitted = slots.admit(List.of(job("a"), job("a"), job("b"), job("b"), job("c"), job("c")));

        assertEquals(3, admitted.start().size(), "one slot per partner");
        assertEquals(2, admitted.queued().size());
        assertEquals(1, admitted.refused().size());
        assertEquals(2, slots.queued());
    }

    @Test
    void aFinishedAttemptStartsItsPartnersNextWaitingDeliveryInOrder() {
        PartnerSlots slots = open(1, 10, 5, 100);
        List<Job> burst = jobs("p", 3);
        slots.admit(burst);

        assertEquals(List.of(burst.get(1)), slots.finish("p").start());
        assertEquals(List.of(burst.get(2)), slots.finish("p").start());
        assertEquals(List.of(), slots.finish("p").start());
        assertEquals(0, slots.inFlight());
        assertEquals(0, slots.queued());
    }

    /** A slot freed by one partner goes to the queue that waited first, not back to the partner that freed it. */
    @Test
    void aFreedReplicaSlotGoesToTheOldestQueueFirst() {
        PartnerSlots slots = open(2, 2, 10, 100);
        Job a1 = job("a");
        Job a2 = job("a");
        Job b1 = job("b");
        Job a3 = job("a");
        slots.admit(List.of(a1, a2, b1, a3));
        assertEquals(1, slots.queued("b"));
        assertEquals(1, slots.queued("a"));

        PartnerSlots.Freed freed = slots.finish("a");

        assertEquals(List.of(b1), freed.start(), "the other partner's delivery does not stand behind a's");
        assertEquals(1, slots.inFlight("a"));
        assertEquals(1, slots.inFlight("b"));
        assertEquals(List.of(a3), slots.finish("b").start());
    }

    @Test
    void aHangingPartnerNeverTakesAnotherPartnersSlots() {
        PartnerSlots slots = open(8, 256, 200, 5000);
        PartnerSlots.Admitted slow = slots.admit(jobs("slow", 40));
        assertEquals(8, slow.start().size());
        assertEquals(32, slow.queued().size());

        Job fast = job("fast");
        assertEquals(List.of(fast), slots.admit(List.of(fast)).start(), "starts at once");
    }

    @Test
    void aFullQueueIsLeftOutOfClaimsUntilItMakesRoom() {
        PartnerSlots slots = open(1, 10, 2, 100);
        slots.admit(jobs("p", 3));
        slots.admit(jobs("q", 2));
        PartnerSlots.ClaimRoom room = slots.claimRoom();
        assertEquals(List.of("p"), room.fullPartners());
        assertEquals(100 - 3, room.free());

        PartnerSlots.Freed freed = slots.finish("p");

        assertEquals(1, freed.start().size());
        assertTrue(freed.fullQueueMadeRoom(), "p's rows in the database may be claimed again");
        assertEquals(List.of(), slots.claimRoom().fullPartners());
        assertFalse(slots.finish("p").fullQueueMadeRoom(), "its queue was no longer full");
    }

    @Test
    void roomIsFreeSlotsPlusFreeQueuePlacesPerPartnerAndInAll() {
        PartnerSlots slots = open(2, 10, 3, 20);
        slots.admit(jobs("p", 3));

        PartnerSlots.Room room = slots.room(List.of("p", "q"));

        assertEquals(Map.of("p", 0 + 2, "q", 2 + 3), room.perPartner());
        assertEquals((10 - 2) + (20 - 1), room.total());
    }

    @Test
    void closedItAdmitsNothingAndHasNoRoom() {
        PartnerSlots slots = new PartnerSlots(8, 256, 200, 5000);
        List<Job> early = jobs("p", 2);
        assertEquals(early, slots.admit(early).refused(), "before open");
        assertEquals(0, slots.room(List.of("p")).total());

        slots.open();
        List<Job> burst = jobs("p", 10);
        slots.admit(burst);
        assertEquals(burst.subList(8, 10), slots.close(), "the waiting ones, to give back");
        assertEquals(0, slots.queued());
        assertEquals(List.of(), slots.finish("p").start(), "nothing starts after close");
        List<Job> late = jobs("q", 1);
        assertEquals(late, slots.admit(late).refused());
        assertEquals(new PartnerSlots.Room(Map.of(), 0), slots.room(List.of("p")));
    }

    @Test
    void recordedDeliveriesAreNoLongerHeld() {
        PartnerSlots slots = open(8, 256, 200, 5000);
        List<Job> pair = jobs("p", 2);
        slots.admit(pair);
        slots.finish("p");

        slots.recorded(List.of(pair.get(0).id()));

        assertEquals(List.of(pair.get(1).id()), slots.held());
    }

    @Test
    void awaitIdleReturnsWhenTheLastAttemptFinishes() throws Exception {
        PartnerSlots slots = open(8, 256, 200, 5000);
        assertTrue(slots.awaitIdle(Duration.ZERO), "nothing in flight");
        slots.admit(jobs("p", 2));
        assertFalse(slots.awaitIdle(Duration.ofMillis(20)), "two in flight");

        CompletableFuture<Void> finishing = CompletableFuture.runAsync(() -> {
            slots.finish("p");
            slots.finish("p");
        });

        assertTrue(slots.awaitIdle(Duration.ofSeconds(10)));
        finishing.get(10, TimeUnit.SECONDS);
    }

    // Property: any interleaving of hand-offs and finished attempts keeps every bound, starts every
    // admitted delivery exactly once, in its partner's order, and loses nothing.

    private static final List<String> PARTNERS = List.of("a", "b", "c");

    /** One step: a hand-off of {@code count} deliveries of a partner, or (count 0) an attempt of it finishing. */
    record Step(String partnerId, int count) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.of(PARTNERS).flatMap(partner -> Arbitraries.integers().between(0, 4)
                .map(count -> new Step(partner, count))).list().ofMaxSize(80);
    }

    @Property(tries = 300)
    void boundsHoldAndEveryAdmittedDeliveryStartsOnceInOrder(
            @ForAll("steps") List<Step> steps,
            @ForAll @IntRange(min = 1, max = 3) int maxInFlightPerPartner,
            @ForAll @IntRange(min = 1, max = 5) int maxInFlight,
            @ForAll @IntRange(min = 1, max = 4) int maxQueuedPerPartner,
            @ForAll @IntRange(min = 1, max = 8) int maxQueued) {
        PartnerSlots slots = open(maxInFlightPerPartner, maxInFlight, maxQueuedPerPartner, maxQueued);
        Map<String, List<Job>> admittedInOrder = new HashMap<>();
        Map<String, List<Job>> startedInOrder = new HashMap<>();
        Map<String, Integer> running = new HashMap<>();
        Set<UUID> started = new HashSet<>();

        for (Step step : steps) {
            List<Job> start;
            if (step.count() > 0) {
                PartnerSlots.Admitted admitted = slots.admit(jobs(step.partnerId(), step.count()));
                assertEquals(step.count(), admitted.start().size() + admitted.queued().size() + admitted.refused().size());
                admittedInOrder.computeIfAbsent(step.partnerId(), p -> new ArrayList<>()).addAll(admitted.start());
                admittedInOrder.get(step.partnerId()).addAll(admitted.queued());
                start = admitted.start();
            } else if (running.getOrDefault(step.partnerId(), 0) > 0) {
                running.merge(step.partnerId(), -1, Integer::sum);
                start = slots.finish(step.partnerId()).start();
            } else {
                continue; // nothing of this partner in flight to finish
            }
            for (Job job : start) {
                assertTrue(started.add(job.id()), "started once");
                running.merge(job.partnerId(), 1, Integer::sum);
                startedInOrder.computeIfAbsent(job.partnerId(), p -> new ArrayList<>()).add(job);
            }
            assertBounds(slots, running, maxInFlightPerPartner, maxInFlight, maxQueuedPerPartner, maxQueued);
        }

        // Drain: finishing everything in flight starts everything that waits.
        boolean finishedOne = true;
        while (finishedOne) {
            finishedOne = false;
            for (String partner : PARTNERS) {
                if (running.getOrDefault(partner, 0) > 0) {
                    running.merge(partner, -1, Integer::sum);
                    for (Job job : slots.finish(partner).start()) {
                        assertTrue(started.add(job.id()), "started once");
                        running.merge(job.partnerId(), 1, Integer::sum);
                        startedInOrder.computeIfAbsent(job.partnerId(), p -> new ArrayList<>()).add(job);
                    }
                    finishedOne = true;
                }
            }
        }
        assertEquals(0, slots.inFlight());
        assertEquals(0, slots.queued(), "nothing left waiting");
        for (String partner : PARTNERS) {
            assertEquals(admittedInOrder.getOrDefault(partner, List.of()), startedInOrder.getOrDefault(partner, List.of()),
                    "every admitted delivery of " + partner + " started, in the order it came");
        }
    }

    private static void assertBounds(PartnerSlots slots, Map<String, Integer> running, int maxInFlightPerPartner,
                                     int maxInFlight, int maxQueuedPerPartner, int maxQueued) {
        int total = 0;
        int queued = 0;
        for (String partner : PARTNERS) {
            int inFlight = slots.inFlight(partner);
            assertEquals(running.getOrDefault(partner, 0), inFlight, "the book counts what runs");
            assertTrue(inFlight <= maxInFlightPerPartner, "per-partner in-flight bound");
            assertTrue(slots.queued(partner) <= maxQueuedPerPartner, "per-partner queue bound");
            if (slots.queued(partner) > 0) {
                assertTrue(inFlight == maxInFlightPerPartner || slots.inFlight() == maxInFlight,
                        "a delivery waits only while a bound is reached");
            }
            total += inFlight;
            queued += slots.queued(partner);
        }
        assertEquals(total, slots.inFlight());
        assertTrue(total <= maxInFlight, "replica in-flight bound");
        assertEquals(queued, slots.queued());
        assertTrue(queued <= maxQueued, "queue bound in all");
    }

    private static List<UUID> ids(List<Job> jobs) {
        return jobs.stream().map(Job::id).toList();
    }
}

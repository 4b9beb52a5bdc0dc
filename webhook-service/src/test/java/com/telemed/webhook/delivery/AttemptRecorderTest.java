package com.telemed.webhook.delivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The recorder thread against a store without a database: what it writes, lets go of, counts and wakes. No Quarkus. */
class AttemptRecorderTest {

    /** Short waits, so a retry's wake-up is seen quickly; the schedule itself is RetryPolicyTest's. */
    private static final Duration WAIT = Duration.ofMillis(50);

    private final RetryPolicy policy = new RetryPolicy(List.of(WAIT, WAIT));
    private final FakeDeliveryStore store = new FakeDeliveryStore(policy);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PartnerSlots slots = new PartnerSlots(8, 256, 200, 5000);
    private final AtomicInteger wakes = new AtomicInteger();
    private final AttemptRecorder recorder = new AttemptRecorder(store, policy, new DeliveryMetrics(registry), slots,
            wakes::incrementAndGet);

    @AfterEach
    void finish() throws InterruptedException {
        recorder.finish(Duration.ofSeconds(5));
    }

    /** An attempt in flight here (held, slot taken) that ended with this status. */
    private Outcome attempted(int roundAttemptsBefore, int httpStatus) {
        Job job = Job.signed(UUID.randomUUID(), "p", "http://127.0.0.1/", "{}", "1700000000", "sha256=00",
                roundAttemptsBefore);
        slots.open();
        slots.admit(List.of(job));
        slots.finish("p");
        return new Outcome(job, Instant.now(), httpStatus, null, 1);
    }

    private double deliveries(String outcome) {
        return registry.get("webhook.deliveries").tag("outcome", outcome).counter().count();
    }

    private int written() {
        return store.recorded.stream().mapToInt(List::size).sum();
    }

    @Test
    void writesLetsGoCountsAndWakesTheClaimLoopWhenTheRetryFallsDue() {
        recorder.start();
        Outcome delivered = attempted(0, 200);
        Outcome retried = attempted(0, 500);
        Outcome failed = attempted(2, 503);
        assertEquals(3, slots.held().size());

        recorder.add(delivered);
        recorder.add(retried);
        recorder.add(failed);

        await().atMost(Duration.ofSeconds(5)).until(() -> written() == 3);
        await().atMost(Duration.ofSeconds(5)).until(() -> slots.held().isEmpty());
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries("failed") == 1);
        assertEquals(1, deliveries("delivered"));
        assertEquals(1, deliveries("retried"));
        await().atMost(Duration.ofSeconds(5)).until(() -> wakes.get() == 1);
        await("one wake-up: only the retry has a next attempt").during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2)).until(() -> wakes.get() == 1);
    }

    /** The database fails: the batch is written again, and the deliveries stay held (leases renewed) until it is. */
    @Test
    void aFailedWriteIsMadeAgainAndTheDeliveriesStayHeldUntilThen() {
        store.failing.set(2);
        recorder.start();
        Outcome outcome = attempted(0, 200);

        recorder.add(outcome);

        await().atMost(Duration.ofSeconds(10)).until(() -> written() == 1);
        assertEquals(0, store.failing.get(), "two failed writes before it");
        await().atMost(Duration.ofSeconds(5)).until(() -> slots.held().isEmpty());
        assertEquals(List.of(outcome), store.recorded.get(0));
    }

    @Test
    void onceShutdownBeganNoRetryWakeUpIsScheduled() {
        Outcome retried = attempted(0, 500);
        assertTrue(slots.held().contains(retried.job().id()));
        recorder.add(retried);

        recorder.stop();
        recorder.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> written() == 1);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> wakes.get() == 0);
    }
}

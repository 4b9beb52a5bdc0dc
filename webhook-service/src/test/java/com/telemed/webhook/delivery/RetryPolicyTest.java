package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The retry decision alone: the contract's schedule, giving up, delivered attempts. No Quarkus, no database. */
class RetryPolicyTest {

    private static final RetryPolicy CONTRACT = new RetryPolicy(List.of(Duration.ofSeconds(2), Duration.ofSeconds(4)));

    private static Outcome outcome(int roundAttemptsBefore, Integer httpStatus, String error) {
        Job job = Job.signed(UUID.randomUUID(), "p-1", "http://127.0.0.1/", "{}", "1700000000", "sha256=00",
                roundAttemptsBefore);
        return new Outcome(job, Instant.EPOCH, httpStatus, error, 1);
    }

    @Test
    void theContractIsThreeAttemptsTwoThenFourSecondsApart() {
        assertEquals(3, CONTRACT.maxAttempts());
        assertEquals(new RetryPolicy.Decision(Delivery.RETRYING, Duration.ofSeconds(2)), CONTRACT.after(false, 1));
        assertEquals(new RetryPolicy.Decision(Delivery.RETRYING, Duration.ofSeconds(4)), CONTRACT.after(false, 2));
        RetryPolicy.Decision third = CONTRACT.after(false, 3);
        assertEquals(Delivery.FAILED, third.status());
        assertFalse(third.retry());
        assertNull(third.backoff());
    }

    @Test
    void aDeliveredAttemptIsNeverRetried() {
        for (int attempt = 1; attempt <= 3; attempt++) {
            RetryPolicy.Decision decision = CONTRACT.after(true, attempt);
            assertEquals(Delivery.DELIVERED, decision.status());
            assertFalse(decision.retry());
        }
    }

    /** The attempt number is the job's attempts made before it in this round, plus this one. */
    @Test
    void anOutcomeIsJudgedByItsJobsRoundAttemptsAndItsStatus() {
        assertEquals(Duration.ofSeconds(2), CONTRACT.after(outcome(0, 500, null)).backoff());
        assertEquals(Duration.ofSeconds(4), CONTRACT.after(outcome(1, null, Sender.TIMEOUT)).backoff());
        assertEquals(Delivery.FAILED, CONTRACT.after(outcome(2, 503, null)).status());
        assertEquals(Delivery.DELIVERED, CONTRACT.after(outcome(2, 204, null)).status());
        assertEquals(Delivery.RETRYING, CONTRACT.after(outcome(0, 302, null)).status(), "a redirect is a failure");
        assertEquals(Delivery.RETRYING, CONTRACT.after(outcome(0, 199, null)).status());
        assertEquals(Delivery.DELIVERED, CONTRACT.after(outcome(0, 299, null)).status());
    }

    /** The waits were shortened while a delivery was retrying: an attempt past the new schedule gives up. */
    @Test
    void anAttemptPastTheScheduleGivesUp() {
        RetryPolicy shortened = new RetryPolicy(List.of(Duration.ofSeconds(2)));
        assertEquals(Delivery.FAILED, shortened.after(false, 2).status());
        assertEquals(Delivery.FAILED, shortened.after(false, 7).status());
    }

    @Test
    void noWaitsMeansOneAttempt() {
        RetryPolicy once = new RetryPolicy(List.of());
        assertEquals(1, once.maxAttempts());
        assertEquals(Delivery.FAILED, once.after(false, 1).status());
    }

    @Test
    void thereIsNoAttemptZero() {
        assertThrows(IllegalArgumentException.class, () -> CONTRACT.after(false, 0));
    }

    @Test
    void theScheduleIsACopy() {
        List<Duration> waits = new ArrayList<>(List.of(Duration.ofSeconds(2)));
        RetryPolicy policy = new RetryPolicy(waits);
        waits.add(Duration.ofSeconds(4));
        assertEquals(2, policy.maxAttempts());
        assertThrows(UnsupportedOperationException.class, () -> policy.waits().add(Duration.ZERO));
    }

    @Provide
    Arbitrary<List<Duration>> schedules() {
        return Arbitraries.longs().between(0, 60_000).map(Duration::ofMillis).list().ofMaxSize(6);
    }

    /**
     * A round that always fails makes exactly {@code maxAttempts} attempts, waiting the schedule's
     * waits in order between them, then gives up; a delivered attempt ends it at once.
     */
    @Property(tries = 500)
    void aFailingRoundFollowsTheScheduleThenGivesUp(@ForAll("schedules") List<Duration> waits,
                                                    @ForAll @IntRange(min = 1, max = 10) int deliveredAt) {
        RetryPolicy policy = new RetryPolicy(waits);
        List<Duration> waited = new ArrayList<>();
        int attempt = 1;
        RetryPolicy.Decision decision = policy.after(false, attempt);
        while (decision.retry()) {
            assertEquals(Delivery.RETRYING, decision.status());
            waited.add(decision.backoff());
            attempt++;
            decision = policy.after(false, attempt);
        }
        assertEquals(Delivery.FAILED, decision.status());
        assertEquals(waits.size() + 1, attempt, "attempts = waits + 1");
        assertEquals(waits, waited, "the waits in order");

        RetryPolicy.Decision delivered = policy.after(true, deliveredAt);
        assertEquals(Delivery.DELIVERED, delivered.status());
        assertFalse(delivered.retry());
        assertTrue(policy.after(false, deliveredAt).retry() == deliveredAt < policy.maxAttempts());
    }
}

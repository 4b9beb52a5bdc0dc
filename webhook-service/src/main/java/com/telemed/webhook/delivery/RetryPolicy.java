package com.telemed.webhook.delivery;

import java.time.Duration;
import java.util.List;

/**
 * The retry decision, written once: after an attempt, whether its delivery is delivered, retried
 * (and after which wait) or failed. Owns the backoff schedule ({@code webhook.retry-waits}: 2 s, 4 s)
 * and the give-up point: a round has one attempt more than there are waits, so 3. {@link DeliveryStore}
 * persists the decision with the attempt; {@link AttemptRecorder} counts it and wakes the claim loop
 * when the retry falls due. Pure: the wait is added to the database clock by the store.
 */
public final class RetryPolicy {

    /**
     * What follows one attempt. {@code status} is the delivery's new status ({@link Delivery#DELIVERED},
     * {@link Delivery#RETRYING} or {@link Delivery#FAILED}); {@code backoff} is the wait until the next
     * attempt, null unless retrying.
     */
    public record Decision(String status, Duration backoff) {

        static final Decision DELIVERED = new Decision(Delivery.DELIVERED, null);
        static final Decision GIVE_UP = new Decision(Delivery.FAILED, null);

        static Decision retryAfter(Duration backoff) {
            return new Decision(Delivery.RETRYING, backoff);
        }

        public boolean retry() {
            return backoff != null;
        }
    }

    private final List<Duration> waits;

    public RetryPolicy(List<Duration> waits) {
        this.waits = List.copyOf(waits);
    }

    /** The waits between a round's attempts, in order. */
    public List<Duration> waits() {
        return waits;
    }

    /** Attempts in one round (a delivery's first, or a redelivery's) at most. */
    public int maxAttempts() {
        return waits.size() + 1;
    }

    /** The decision after this attempt: its job's {@code roundAttempts} were made before it. */
    public Decision after(Outcome outcome) {
        return after(outcome.delivered(), outcome.job().roundAttempts() + 1);
    }

    /**
     * The decision after the round's attempt number {@code attemptsMade} (1 for the first). An attempt
     * past the schedule (the waits were shortened while a delivery was retrying) gives up.
     */
    public Decision after(boolean delivered, int attemptsMade) {
        if (attemptsMade < 1) {
            throw new IllegalArgumentException("attemptsMade must be at least 1, was " + attemptsMade);
        }
        if (delivered) {
            return Decision.DELIVERED;
        }
        if (attemptsMade < maxAttempts()) {
            return Decision.retryAfter(waits.get(attemptsMade - 1));
        }
        return Decision.GIVE_UP;
    }
}

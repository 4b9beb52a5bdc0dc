package com.telemed.webhook.delivery;

import com.telemed.common.error.Failures;
import com.telemed.webhook.WebhookConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Future;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Sends deliveries and has their attempts recorded: takes deliveries this replica has leased and
 * starts their attempts as far as the bounds allow. Its parts:
 *
 * <ul>
 *   <li>{@link PartnerSlots}: attempts in flight per partner and in all, the per-partner queues of
 *       deliveries waiting for a slot, and which deliveries this replica holds.</li>
 *   <li>{@link ClaimLoop}: claims due deliveries from the database (retries, redeliveries of other
 *       replicas, deliveries given back for want of room, expired leases) and renews held leases.</li>
 *   <li>{@link AttemptRecorder}: writes finished attempts in batches, as {@link RetryPolicy} decides.</li>
 * </ul>
 *
 * Fresh deliveries arrive in memory from the consumer ({@link #handOff}), already leased to this
 * replica by their insert, so they go out at once. A delivery that finds its partner (or the
 * replica) at the bound waits in its partner's queue (lease held and renewed) and starts when a slot
 * frees; when that queue is full it is given back (lease cleared).
 */
@Singleton
public class Dispatcher {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);

    private static final Duration IN_FLIGHT_GRACE = Duration.ofSeconds(3);
    private static final Duration RECORDER_GRACE = Duration.ofSeconds(5);
    private static final Duration POLLER_GRACE = Duration.ofSeconds(2);

    private final Sender sender;
    private final DeliveryMetrics metrics;
    private final PartnerSlots slots;
    private final ClaimLoop claims;
    private final AttemptRecorder recorder;

    public Dispatcher(DeliveryStore store, Sender sender, DeliveryMetrics metrics, RetryPolicy retryPolicy,
                      WebhookConfig config) {
        this.sender = sender;
        this.metrics = metrics;
        this.slots = new PartnerSlots(config.maxInFlightPerPartner(), config.maxInFlight(),
                config.maxQueuedPerPartner(), config.maxQueued());
        this.claims = new ClaimLoop(store, slots, this::handOff, config.pollInterval(), config.claimBatch(),
                config.lease());
        this.recorder = new AttemptRecorder(store, retryPolicy, metrics, slots, claims::wake);
    }

    void start(@Observes StartupEvent event) {
        slots.open();
        claims.start();
        recorder.start();
    }

    /**
     * Stops claiming, lets attempts in flight finish for a moment and writes what finished.
     * Anything still in flight keeps its lease and is attempted again after the lease expires.
     */
    void stop(@Observes ShutdownEvent event) {
        claims.stop();
        recorder.stop();
        // Waiting deliveries go back at once: another replica need not wait for the leases.
        claims.giveBack(ids(slots.close()));
        boolean interrupted = false;
        try {
            slots.awaitIdle(IN_FLIGHT_GRACE);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        try {
            recorder.finish(RECORDER_GRACE);
            claims.join(POLLER_GRACE);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Deliveries this replica has just leased (inserted or redelivered): attempted now if a bound allows. */
    public void handOff(List<Job> jobs) {
        PartnerSlots.Admitted admitted = slots.admit(jobs);
        if (!admitted.refused().isEmpty()) {
            claims.markBacklog();
        }
        admitted.start().forEach(this::attempt);
        if (!admitted.refused().isEmpty()) {
            claims.giveBack(ids(admitted.refused()));
        }
    }

    /** Asks the claim loop to claim now. */
    public void wake() {
        claims.wake();
    }

    /**
     * How many fresh deliveries of these partners this replica could start or queue now. The intake
     * leases that many and inserts the rest unleased, to be claimed (here or by another replica)
     * once there is room, instead of leasing them only to give them back (one more statement per
     * delivery, for about 3 in 4 of bench/webhook-delivery.sh's 20,000-event burst). An estimate:
     * concurrent batches may count the same room, and {@link #handOff} gives back what no longer fits.
     */
    public PartnerSlots.Room room(Collection<String> partnerIds) {
        return slots.room(partnerIds);
    }

    /** Deliveries were stored unleased (no room here): claim them as soon as an attempt makes room. */
    public void storedUnleased() {
        claims.markBacklog();
        wake();
    }

    private void attempt(Job job) {
        Future<Outcome> sending;
        try {
            sending = sender.send(job);
        } catch (RuntimeException e) {
            // Never leak a slot: an attempt that could not even start is a failed attempt.
            LOG.warnf("Starting a webhook attempt failed: %s", Failures.describe(e));
            sending = Future.succeededFuture(new Outcome(job, Instant.now(), null, "internal error", 0));
        }
        sending.onComplete(done -> {
            Outcome outcome = done.result();
            metrics.attempt(outcome);
            recorder.add(outcome);
            PartnerSlots.Freed freed = slots.finish(job.partnerId());
            if (freed.fullQueueMadeRoom()) {
                // A full queue was left out of claims: its partner may have deliveries waiting in the database.
                claims.markBacklog();
            }
            boolean claim = freed.start().isEmpty() && claims.backlog();
            freed.start().forEach(this::attempt);
            if (claim) {
                claims.wake();
            }
        });
    }

    private static List<UUID> ids(List<Job> jobs) {
        return jobs.stream().map(Job::id).toList();
    }
}

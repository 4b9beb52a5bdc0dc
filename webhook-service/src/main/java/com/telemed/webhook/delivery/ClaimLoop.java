package com.telemed.webhook.delivery;

import com.telemed.common.metrics.JobMetrics;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The claim loop: a poller thread that claims due deliveries ({@link DeliveryStore#CLAIM}) as far as
 * the slot book has room and hands them out, every {@code webhook.poll-interval} and whenever woken
 * (a retry fell due, or an attempt ended while the database may hold deliveries this replica could
 * take). Owns the wake-ups, the backlog flag, the renewal of held deliveries' leases (every third of
 * the lease) and giving deliveries back to the database.
 */
final class ClaimLoop {

    private static final Logger LOG = Logger.getLogger(ClaimLoop.class);

    private final DeliveryStore store;
    private final PartnerSlots slots;
    private final Consumer<List<Job>> handOut;
    private final long pollIntervalMs;
    private final int claimBatch;
    private final long renewEveryNanos;
    private final Semaphore wakeups = new Semaphore(0);
    private final ThrottledLog failures = new ThrottledLog(LOG, "Claiming due webhook deliveries");

    // Guarded by this.
    /**
     * Whether the database may hold deliveries a claim would return now: set when deliveries are
     * given back, when a partner's full queue makes room, when a claim came back full; cleared by a
     * claim that came back short with no mark in between ({@code backlogMarks}). Only then does a
     * finished attempt ask for a claim: otherwise, while events stream in no faster than they go
     * out, every finished attempt ran a claim that found nothing (one statement per attempt). The
     * poll interval and the retry timers claim regardless.
     */
    private boolean backlog = true;
    private long backlogMarks;

    // The poller thread only.
    private long lastRenewal = System.nanoTime();

    private volatile boolean stopped;
    private Thread poller;
    /** Each claim poll is a run of the job {@code webhook-dispatcher}; one that throws, a failure. */
    private final JobMetrics job = JobMetrics.of("webhook-dispatcher");

    /** {@code handOut} gets every claimed batch (leased to this replica) to attempt or queue. */
    ClaimLoop(DeliveryStore store, PartnerSlots slots, Consumer<List<Job>> handOut,
              Duration pollInterval, int claimBatch, Duration lease) {
        this.store = store;
        this.slots = slots;
        this.handOut = handOut;
        this.pollIntervalMs = pollInterval.toMillis();
        this.claimBatch = claimBatch;
        this.renewEveryNanos = lease.toNanos() / 3;
    }

    void start() {
        poller = new Thread(this::loop, "webhook-dispatcher");
        poller.setDaemon(true);
        poller.start();
    }

    /** Claims no more; the poller ends after its current claim ({@link #join}). */
    void stop() {
        stopped = true;
        wake();
    }

    void join(Duration timeout) throws InterruptedException {
        if (poller != null) {
            poller.join(timeout.toMillis());
        }
    }

    /** Asks the poller to claim now. */
    void wake() {
        wakeups.release();
    }

    /** The database may hold claimable deliveries. */
    synchronized void markBacklog() {
        backlog = true;
        backlogMarks++;
    }

    synchronized boolean backlog() {
        return backlog;
    }

    /**
     * Gives deliveries back without attempting them (lease cleared), for any replica to claim. A
     * failure is logged: the leases expire on their own, the deliveries are only later.
     */
    void giveBack(Collection<UUID> ids) {
        try {
            store.release(ids);
        } catch (Exception e) {
            failures.failed(e);
        }
    }

    private void loop() {
        while (!stopped) {
            try {
                wakeups.tryAcquire(pollIntervalMs, TimeUnit.MILLISECONDS);
                wakeups.drainPermits();
            } catch (InterruptedException e) {
                break;
            }
            if (stopped) {
                break;
            }
            try {
                pollOnce();
                failures.recovered();
                job.ran(false);
            } catch (Exception e) {
                failures.failed(e);
                job.ran(true);
            }
        }
    }

    /** Claims while there is room in memory and a full batch came back. */
    void pollOnce() throws Exception {
        renewIfDue();
        while (!stopped) {
            long marks;
            synchronized (this) {
                // Before the room is read: a mark after this (room made meanwhile) keeps the backlog.
                marks = backlogMarks;
            }
            PartnerSlots.ClaimRoom room = slots.claimRoom();
            if (room.free() <= 0) {
                return;
            }
            int limit = Math.min(claimBatch, room.free());
            List<Job> jobs = store.claim(limit, room.fullPartners());
            synchronized (this) {
                if (jobs.size() < limit && backlogMarks == marks) {
                    // Nothing more is due for the partners with room. The full partners' rows are
                    // claimed when their queues make room (PartnerSlots.finish reports it).
                    backlog = false;
                }
            }
            if (jobs.isEmpty()) {
                return;
            }
            handOut.accept(jobs);
            if (jobs.size() < limit) {
                return;
            }
        }
    }

    /** Keeps the leases of held deliveries (waiting or in flight) alive, every third of the lease. */
    private void renewIfDue() {
        if (System.nanoTime() - lastRenewal < renewEveryNanos) {
            return;
        }
        List<UUID> ids = slots.held();
        if (ids.isEmpty()) {
            return;
        }
        lastRenewal = System.nanoTime();
        try {
            store.renew(ids);
        } catch (Exception e) {
            failures.failed(e);
        }
    }
}

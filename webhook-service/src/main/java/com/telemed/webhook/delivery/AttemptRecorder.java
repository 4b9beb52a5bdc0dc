package com.telemed.webhook.delivery;

import com.telemed.common.metrics.JobMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The attempt recorder: finished attempts are queued here ({@link #add}) and a recorder thread writes
 * them in batches ({@link DeliveryStore#record}: attempt row, status, next attempt time and lease
 * release in one transaction, as the {@link RetryPolicy} decides). After each write it lets go of the
 * deliveries in the slot book, counts every outcome and, for a retry, wakes the claim loop when the
 * retry falls due. A write that fails is made again after a pause, until shutdown.
 */
final class AttemptRecorder {

    private static final Logger LOG = Logger.getLogger(AttemptRecorder.class);

    private static final int MAX_BATCH = 500;
    private static final long IDLE_POLL_MS = 200;
    private static final long PAUSE_AFTER_FAILURE_MS = 500;

    private final DeliveryStore store;
    private final RetryPolicy policy;
    private final DeliveryMetrics metrics;
    private final PartnerSlots slots;
    private final Runnable wake;
    private final BlockingQueue<Outcome> finished = new LinkedBlockingQueue<>();
    private final ThrottledLog failures = new ThrottledLog(LOG, "Recording webhook attempts");
    /** Cut short the pause after a failed write. */
    private final CountDownLatch finishing = new CountDownLatch(1);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "webhook-retry-timer");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean stopped;
    private Thread recorder;
    /** Each batch write is a run of the job {@code webhook-recorder}; one that fails, a failure. */
    private final JobMetrics job = JobMetrics.of("webhook-recorder");

    /** {@code wake} asks the claim loop to claim: run when a retry falls due. */
    AttemptRecorder(DeliveryStore store, RetryPolicy policy, DeliveryMetrics metrics, PartnerSlots slots,
                    Runnable wake) {
        this.store = store;
        this.policy = policy;
        this.metrics = metrics;
        this.slots = slots;
        this.wake = wake;
    }

    void start() {
        recorder = new Thread(this::loop, "webhook-recorder");
        recorder.setDaemon(true);
        recorder.start();
    }

    /** A finished attempt, to be recorded. */
    void add(Outcome outcome) {
        finished.add(outcome);
    }

    /**
     * Shutdown has begun: the recorder still writes what finishes, ends once nothing is left, and
     * schedules no more retry wake-ups (the next start claims what is due).
     */
    void stop() {
        stopped = true;
    }

    /**
     * Ends the recorder: it writes what it holds (once, if the database fails) and ends within
     * {@code timeout}. Anything not written keeps its lease and is attempted again after it expires.
     */
    void finish(Duration timeout) throws InterruptedException {
        stopped = true;
        finishing.countDown();
        try {
            if (recorder != null) {
                recorder.interrupt();
                recorder.join(timeout.toMillis());
            }
        } finally {
            timers.shutdownNow();
        }
    }

    private void loop() {
        List<Outcome> batch = new ArrayList<>();
        while (true) {
            if (batch.isEmpty()) {
                try {
                    Outcome first = finished.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        if (stopped && finished.isEmpty()) {
                            return;
                        }
                        continue;
                    }
                    batch.add(first);
                } catch (InterruptedException e) {
                    if (finished.isEmpty()) {
                        return;
                    }
                }
                finished.drainTo(batch, MAX_BATCH - 1);
            }
            try {
                store.record(batch);
                failures.recovered();
                job.ran(false);
            } catch (Exception e) {
                failures.failed(e);
                job.ran(true);
                if (stopped) {
                    return; // the leases expire; another start attempts these deliveries again
                }
                pause();
                continue;
            }
            recorded(batch);
            batch.clear();
        }
    }

    /** After the write: no longer held, counted, and a retry wakes the claim loop when it falls due. */
    private void recorded(List<Outcome> batch) {
        List<UUID> ids = new ArrayList<>(batch.size());
        for (Outcome outcome : batch) {
            ids.add(outcome.job().id());
        }
        slots.recorded(ids);
        for (Outcome outcome : batch) {
            RetryPolicy.Decision decision = policy.after(outcome);
            metrics.recorded(outcome, decision.retry());
            if (decision.retry() && !stopped) {
                timers.schedule(wake, decision.backoff().toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Waits before writing again after a failure; cut short by {@link #finish}. */
    private void pause() {
        try {
            finishing.await(PAUSE_AFTER_FAILURE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

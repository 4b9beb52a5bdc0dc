package com.telemed.webhook.delivery;

import com.telemed.webhook.config.WebhookConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Sends deliveries and records their attempts.
 *
 * <ul>
 *   <li>Fresh deliveries arrive in memory from the consumer ({@link #handOff}), already leased to
 *       this replica by their insert, so they go out at once.</li>
 *   <li>A poller thread claims due deliveries ({@link DeliveryStore#CLAIM}) every
 *       {@code webhook.poll-interval}, when an attempt ends, and when a retry falls due: retries,
 *       redeliveries of other replicas, and deliveries whose lease expired because the replica
 *       attempting them went away.</li>
 *   <li>Bounds: {@code max-in-flight-per-partner} attempts per partner and {@code max-in-flight} in
 *       all. A delivery that finds its partner (or the replica) at the bound is given back
 *       (lease cleared) and claimed again later; the claim leaves saturated partners out, so one
 *       slow partner's backlog never stands in front of another partner's deliveries.</li>
 *   <li>A recorder thread writes finished attempts in batches: attempt row, status, next attempt
 *       time and lease release in one transaction.</li>
 * </ul>
 */
@Singleton
public class Dispatcher {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);

    private final DeliveryStore store;
    private final Sender sender;
    private final DeliveryMetrics metrics;
    private final WebhookConfig config;
    private final List<Duration> retryWaits;

    private final Map<String, Integer> inFlightByPartner = new HashMap<>();
    private int inFlight;

    private final Semaphore wakeups = new Semaphore(0);
    private final BlockingQueue<Outcome> finished = new LinkedBlockingQueue<>();
    private final ThrottledLog pollFailures = new ThrottledLog(LOG, "Claiming due webhook deliveries");
    private final ThrottledLog recordFailures = new ThrottledLog(LOG, "Recording webhook attempts");
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "webhook-retry-timer");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean running;
    private Thread poller;
    private Thread recorder;

    public Dispatcher(DeliveryStore store, Sender sender, DeliveryMetrics metrics, WebhookConfig config) {
        this.store = store;
        this.sender = sender;
        this.metrics = metrics;
        this.config = config;
        this.retryWaits = List.copyOf(config.retryWaits());
    }

    void start(@Observes StartupEvent event) {
        running = true;
        poller = new Thread(this::pollLoop, "webhook-dispatcher");
        poller.setDaemon(true);
        poller.start();
        recorder = new Thread(this::recordLoop, "webhook-recorder");
        recorder.setDaemon(true);
        recorder.start();
    }

    /**
     * Stops claiming, lets attempts in flight finish for a moment and writes what finished.
     * Anything still in flight keeps its lease and is attempted again after the lease expires.
     */
    void stop(@Observes ShutdownEvent event) {
        running = false;
        wake();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (inFlight() > 0 && System.nanoTime() < deadline) {
            sleep(20);
        }
        recorder.interrupt();
        try {
            recorder.join(5000);
            poller.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timers.shutdownNow();
    }

    /** Deliveries this replica has just leased (inserted or redelivered): attempted now if a bound allows. */
    public void handOff(List<Job> jobs) {
        List<UUID> giveBack = new ArrayList<>();
        for (Job job : jobs) {
            if (running && acquire(job.partnerId())) {
                attempt(job);
            } else {
                giveBack.add(job.id());
            }
        }
        if (!giveBack.isEmpty()) {
            try {
                store.release(giveBack);
            } catch (Exception e) {
                // The leases expire on their own; the deliveries are only later.
                pollFailures.failed(e);
            }
        }
    }

    /** Asks the poller to claim now. */
    public void wake() {
        wakeups.release();
    }

    private void pollLoop() {
        while (running) {
            try {
                wakeups.tryAcquire(config.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
                wakeups.drainPermits();
            } catch (InterruptedException e) {
                break;
            }
            if (!running) {
                break;
            }
            try {
                pollOnce();
                pollFailures.recovered();
            } catch (Exception e) {
                pollFailures.failed(e);
            }
        }
    }

    /** Claims while there is capacity and a full batch came back. */
    void pollOnce() throws Exception {
        while (running) {
            int free = config.maxInFlight() - inFlight();
            if (free <= 0) {
                return;
            }
            int limit = Math.min(config.claimBatch(), free);
            List<Job> jobs = store.claim(limit, saturatedPartners());
            if (jobs.isEmpty()) {
                return;
            }
            handOff(jobs);
            if (jobs.size() < limit) {
                return;
            }
        }
    }

    private void attempt(Job job) {
        sender.send(job).onComplete(done -> {
            release(job.partnerId());
            Outcome outcome = done.result();
            metrics.attempt(outcome);
            finished.add(outcome);
            wake();
        });
    }

    private void recordLoop() {
        List<Outcome> batch = new ArrayList<>();
        while (true) {
            if (batch.isEmpty()) {
                try {
                    Outcome first = finished.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        if (!running && finished.isEmpty()) {
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
                finished.drainTo(batch, 499);
            }
            try {
                store.record(batch, retryWaits);
                recordFailures.recovered();
            } catch (Exception e) {
                recordFailures.failed(e);
                if (!running) {
                    return; // the leases expire; another start attempts these deliveries again
                }
                sleep(500);
                continue;
            }
            for (Outcome outcome : batch) {
                int made = outcome.job().roundAttempts() + 1;
                boolean retry = !outcome.delivered() && made < retryWaits.size() + 1;
                metrics.recorded(outcome, retry);
                if (retry && running) {
                    timers.schedule(this::wake, retryWaits.get(made - 1).toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            batch.clear();
        }
    }

    private synchronized boolean acquire(String partnerId) {
        int partner = inFlightByPartner.getOrDefault(partnerId, 0);
        if (inFlight >= config.maxInFlight() || partner >= config.maxInFlightPerPartner()) {
            return false;
        }
        inFlightByPartner.put(partnerId, partner + 1);
        inFlight++;
        return true;
    }

    private synchronized void release(String partnerId) {
        int partner = inFlightByPartner.getOrDefault(partnerId, 0) - 1;
        if (partner <= 0) {
            inFlightByPartner.remove(partnerId);
        } else {
            inFlightByPartner.put(partnerId, partner);
        }
        inFlight--;
    }

    synchronized int inFlight() {
        return inFlight;
    }

    private synchronized List<String> saturatedPartners() {
        List<String> saturated = new ArrayList<>();
        inFlightByPartner.forEach((partner, count) -> {
            if (count >= config.maxInFlightPerPartner()) {
                saturated.add(partner);
            }
        });
        return saturated;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

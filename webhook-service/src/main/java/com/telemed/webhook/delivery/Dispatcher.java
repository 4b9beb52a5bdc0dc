package com.telemed.webhook.delivery;

import com.telemed.webhook.config.WebhookConfig;
import com.telemed.common.error.Failures;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Future;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Set;
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
 *       {@code webhook.poll-interval}, when a retry falls due, and when an attempt ends while the
 *       database may hold deliveries this replica could take: retries, redeliveries of other
 *       replicas, deliveries given back for want of room, and deliveries whose lease expired because
 *       the replica attempting them went away.</li>
 *   <li>Bounds: {@code max-in-flight-per-partner} attempts per partner and {@code max-in-flight} in
 *       all. A delivery that finds its partner (or the replica) at the bound waits in its partner's
 *       in-memory queue (lease held and renewed) and starts when a slot frees; when that queue is
 *       full ({@code max-queued-per-partner}, or {@code max-queued} in all) it is given back (lease
 *       cleared). Claims leave partners with a full queue out, so one slow partner's backlog never
 *       stands in front of another partner's deliveries.</li>
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

    // Guarded by this.
    private final Map<String, Integer> inFlightByPartner = new HashMap<>();
    private final Map<String, Deque<Job>> queuedByPartner = new LinkedHashMap<>();
    private final Set<UUID> held = new HashSet<>();
    private int inFlight;
    private int queued;
    private long lastRenewal = System.nanoTime();
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
        List<UUID> waiting = new ArrayList<>();
        synchronized (this) {
            queuedByPartner.values().forEach(queue -> queue.forEach(job -> waiting.add(job.id())));
            queuedByPartner.clear();
            queued = 0;
        }
        try {
            // Waiting deliveries go back at once: another replica need not wait for the leases.
            store.release(waiting);
        } catch (Exception e) {
            pollFailures.failed(e);
        }
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
        List<Job> start = new ArrayList<>();
        synchronized (this) {
            for (Job job : jobs) {
                if (!running) {
                    giveBack.add(job.id());
                } else if (acquire(job.partnerId())) {
                    held.add(job.id());
                    start.add(job);
                } else if (enqueue(job)) {
                    held.add(job.id());
                } else {
                    giveBack.add(job.id());
                }
            }
            if (!giveBack.isEmpty()) {
                markBacklog();
            }
        }
        start.forEach(this::attempt);
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

    /** Room for fresh deliveries: per partner (in flight or queued) and in all. */
    public record Room(Map<String, Integer> perPartner, int total) {
    }

    /**
     * How many fresh deliveries of these partners this replica could start or queue now. The intake
     * leases that many and inserts the rest unleased, to be claimed (here or by another replica)
     * once there is room, instead of leasing them only to give them back (one more statement per
     * delivery, for about 3 in 4 of bench/webhook-delivery.sh's 20,000-event burst). An estimate:
     * concurrent batches may count the same room, and {@link #handOff} gives back what no longer fits.
     */
    public synchronized Room room(Collection<String> partnerIds) {
        Map<String, Integer> perPartner = new HashMap<>();
        if (!running) {
            return new Room(perPartner, 0);
        }
        for (String partnerId : partnerIds) {
            Deque<Job> queue = queuedByPartner.get(partnerId);
            perPartner.put(partnerId,
                    Math.max(0, config.maxInFlightPerPartner() - inFlightByPartner.getOrDefault(partnerId, 0))
                            + Math.max(0, config.maxQueuedPerPartner() - (queue == null ? 0 : queue.size())));
        }
        return new Room(perPartner, Math.max(0, config.maxInFlight() - inFlight) + Math.max(0, config.maxQueued() - queued));
    }

    /** Deliveries were stored unleased (no room here): claim them as soon as an attempt makes room. */
    public void storedUnleased() {
        synchronized (this) {
            markBacklog();
        }
        wake();
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
        renewIfDue();
        while (running) {
            int free;
            List<String> full;
            long marks;
            synchronized (this) {
                free = config.maxQueued() - queued;
                full = fullPartners();
                marks = backlogMarks;
            }
            if (free <= 0) {
                return;
            }
            int limit = Math.min(config.claimBatch(), free);
            List<Job> jobs = store.claim(limit, full);
            synchronized (this) {
                if (jobs.size() < limit && backlogMarks == marks) {
                    // Nothing more is due for the partners with room. The full partners' rows are
                    // claimed when their queues make room (startable marks it).
                    backlog = false;
                }
            }
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
            finished.add(outcome);
            List<Job> next;
            boolean claim;
            synchronized (this) {
                release(job.partnerId());
                next = startable();
                claim = next.isEmpty() && backlog;
            }
            next.forEach(this::attempt);
            if (claim) {
                wake();
            }
        });
    }

    /**
     * Waiting deliveries that may start now: the partners' queues in turn (the partner that just
     * finished an attempt is among them), as far as the bounds allow. Marks them in flight.
     */
    private List<Job> startable() {
        List<Job> start = new ArrayList<>();
        if (queued == 0 || !running) {
            return start;
        }
        Iterator<Map.Entry<String, Deque<Job>>> partners = queuedByPartner.entrySet().iterator();
        while (partners.hasNext() && inFlight < config.maxInFlight()) {
            Map.Entry<String, Deque<Job>> partner = partners.next();
            if (partner.getValue().size() >= config.maxQueuedPerPartner() && acquire(partner.getKey())) {
                // A full queue was left out of claims: its partner may have deliveries waiting in the database.
                start.add(partner.getValue().pollFirst());
                queued--;
                markBacklog();
            }
            while (!partner.getValue().isEmpty() && acquire(partner.getKey())) {
                start.add(partner.getValue().pollFirst());
                queued--;
            }
            if (partner.getValue().isEmpty()) {
                partners.remove();
            }
        }
        return start;
    }

    private boolean enqueue(Job job) {
        Deque<Job> queue = queuedByPartner.computeIfAbsent(job.partnerId(), partner -> new ArrayDeque<>());
        if (queue.size() >= config.maxQueuedPerPartner() || queued >= config.maxQueued()) {
            if (queue.isEmpty()) {
                queuedByPartner.remove(job.partnerId());
            }
            return false;
        }
        queue.addLast(job);
        queued++;
        return true;
    }

    /** Keeps the leases of held deliveries (waiting or in flight) alive, every third of the lease. */
    private void renewIfDue() {
        List<UUID> ids;
        synchronized (this) {
            if (System.nanoTime() - lastRenewal < config.lease().toNanos() / 3 || held.isEmpty()) {
                return;
            }
            lastRenewal = System.nanoTime();
            ids = new ArrayList<>(held);
        }
        try {
            store.renew(ids);
        } catch (Exception e) {
            pollFailures.failed(e);
        }
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
            synchronized (this) {
                for (Outcome outcome : batch) {
                    held.remove(outcome.job().id());
                }
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

    /** The database may hold claimable deliveries; caller holds the lock. */
    private void markBacklog() {
        backlog = true;
        backlogMarks++;
    }

    /** Takes an in-flight slot of the partner and of the replica; caller holds the lock. */
    private boolean acquire(String partnerId) {
        int partner = inFlightByPartner.getOrDefault(partnerId, 0);
        if (inFlight >= config.maxInFlight() || partner >= config.maxInFlightPerPartner()) {
            return false;
        }
        inFlightByPartner.put(partnerId, partner + 1);
        inFlight++;
        return true;
    }

    private void release(String partnerId) {
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

    /** Partners whose queue is full: left out of claims. Caller holds the lock. */
    private List<String> fullPartners() {
        List<String> full = new ArrayList<>();
        queuedByPartner.forEach((partner, queue) -> {
            if (queue.size() >= config.maxQueuedPerPartner()) {
                full.add(partner);
            }
        });
        return full;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

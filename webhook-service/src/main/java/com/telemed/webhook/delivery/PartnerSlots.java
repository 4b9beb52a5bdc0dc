package com.telemed.webhook.delivery;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * This replica's slot bookkeeping: attempts in flight per partner ({@code max-in-flight-per-partner})
 * and in all ({@code max-in-flight}), and the deliveries waiting in memory for a slot, in a queue per
 * partner ({@code max-queued-per-partner}, {@code max-queued} in all). Owns the fairness rules: a
 * delivery over a bound waits in its own partner's queue, a freed slot goes to the partners' queues
 * in turn (oldest queue first, each as far as its partner's bound allows), and a partner whose queue
 * is full is left out of claims, so one slow partner's backlog never stands in front of another's.
 * Also owns which deliveries this replica holds (waiting or in flight, until their attempt is
 * recorded): their leases are renewed. Closed until {@link #open} and after {@link #close}: nothing
 * is admitted. Pure Java, no I/O; thread-safe (every method under this object's monitor).
 */
public final class PartnerSlots {

    /** Room for fresh deliveries: per partner (in flight or queued) and in all. */
    public record Room(Map<String, Integer> perPartner, int total) {
    }

    /** A hand-off sorted out: to attempt now, waiting in their partners' queues, to give back. */
    record Admitted(List<Job> start, List<Job> queued, List<Job> refused) {
    }

    /**
     * What a finished attempt freed: waiting deliveries to attempt now (already in flight here), and
     * whether a full queue made room (its partner, left out of claims, may have deliveries waiting in
     * the database).
     */
    record Freed(List<Job> start, boolean fullQueueMadeRoom) {
    }

    /** What a claim may take: free places in memory in all, and the partners left out (queue full). */
    record ClaimRoom(int free, List<String> fullPartners) {
    }

    private final int maxInFlightPerPartner;
    private final int maxInFlight;
    private final int maxQueuedPerPartner;
    private final int maxQueued;

    private final Map<String, Integer> inFlightByPartner = new HashMap<>();
    private final Map<String, Deque<Job>> queuedByPartner = new LinkedHashMap<>();
    private final Set<UUID> held = new HashSet<>();
    private int inFlight;
    private int queued;
    private boolean open;

    PartnerSlots(int maxInFlightPerPartner, int maxInFlight, int maxQueuedPerPartner, int maxQueued) {
        this.maxInFlightPerPartner = maxInFlightPerPartner;
        this.maxInFlight = maxInFlight;
        this.maxQueuedPerPartner = maxQueuedPerPartner;
        this.maxQueued = maxQueued;
    }

    synchronized void open() {
        open = true;
    }

    /**
     * Sorts deliveries this replica has just leased, in order: a free slot of the partner and of the
     * replica starts one (in flight from now on), else it waits in its partner's queue if there is
     * room, else (or when closed) it is to be given back. Started and waiting ones are held.
     */
    synchronized Admitted admit(List<Job> jobs) {
        List<Job> start = new ArrayList<>();
        List<Job> waiting = new ArrayList<>();
        List<Job> refused = new ArrayList<>();
        for (Job job : jobs) {
            if (!open) {
                refused.add(job);
            } else if (acquire(job.partnerId())) {
                held.add(job.id());
                start.add(job);
            } else if (enqueue(job)) {
                held.add(job.id());
                waiting.add(job);
            } else {
                refused.add(job);
            }
        }
        return new Admitted(start, waiting, refused);
    }

    /**
     * An attempt of this partner ended: frees its slot and takes the waiting deliveries that may
     * start now, the partners' queues in turn (the partner that just finished among them), as far as
     * the bounds allow. A full queue first gets one slot of its own if its partner has one free.
     */
    synchronized Freed finish(String partnerId) {
        release(partnerId);
        List<Job> start = new ArrayList<>();
        boolean fullQueueMadeRoom = false;
        if (queued > 0 && open) {
            Iterator<Map.Entry<String, Deque<Job>>> partners = queuedByPartner.entrySet().iterator();
            while (partners.hasNext() && inFlight < maxInFlight) {
                Map.Entry<String, Deque<Job>> partner = partners.next();
                if (partner.getValue().size() >= maxQueuedPerPartner && acquire(partner.getKey())) {
                    start.add(partner.getValue().pollFirst());
                    queued--;
                    fullQueueMadeRoom = true;
                }
                while (!partner.getValue().isEmpty() && acquire(partner.getKey())) {
                    start.add(partner.getValue().pollFirst());
                    queued--;
                }
                if (partner.getValue().isEmpty()) {
                    partners.remove();
                }
            }
        }
        if (inFlight == 0) {
            notifyAll();
        }
        return new Freed(start, fullQueueMadeRoom);
    }

    /**
     * How many fresh deliveries of these partners could start or wait here now: free slots plus free
     * places in the queue, per partner and in all. Zero when closed.
     */
    synchronized Room room(Collection<String> partnerIds) {
        Map<String, Integer> perPartner = new HashMap<>();
        if (!open) {
            return new Room(perPartner, 0);
        }
        for (String partnerId : partnerIds) {
            Deque<Job> queue = queuedByPartner.get(partnerId);
            perPartner.put(partnerId,
                    Math.max(0, maxInFlightPerPartner - inFlightByPartner.getOrDefault(partnerId, 0))
                            + Math.max(0, maxQueuedPerPartner - (queue == null ? 0 : queue.size())));
        }
        return new Room(perPartner, Math.max(0, maxInFlight - inFlight) + Math.max(0, maxQueued - queued));
    }

    /** Free places in memory and the partners whose queue is full, read together. */
    synchronized ClaimRoom claimRoom() {
        List<String> full = new ArrayList<>();
        queuedByPartner.forEach((partner, queue) -> {
            if (queue.size() >= maxQueuedPerPartner) {
                full.add(partner);
            }
        });
        return new ClaimRoom(maxQueued - queued, full);
    }

    /** Held deliveries, waiting or in flight: the leases to renew. */
    synchronized List<UUID> held() {
        return new ArrayList<>(held);
    }

    /** These deliveries' attempts are recorded (their leases released): no longer held. */
    synchronized void recorded(Collection<UUID> ids) {
        held.removeAll(ids);
    }

    /** Admits nothing from now on; returns the waiting deliveries (to give back), emptying the queues. */
    synchronized List<Job> close() {
        open = false;
        List<Job> waiting = new ArrayList<>();
        queuedByPartner.values().forEach(waiting::addAll);
        queuedByPartner.clear();
        queued = 0;
        return waiting;
    }

    /** Waits until no attempt is in flight, at most {@code timeout}; true when none is. */
    synchronized boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long remaining = timeout.toNanos();
        while (inFlight > 0 && remaining > 0) {
            wait(Math.max(1, remaining / 1_000_000));
            remaining = deadline - System.nanoTime();
        }
        return inFlight == 0;
    }

    synchronized int inFlight() {
        return inFlight;
    }

    synchronized int inFlight(String partnerId) {
        return inFlightByPartner.getOrDefault(partnerId, 0);
    }

    synchronized int queued() {
        return queued;
    }

    synchronized int queued(String partnerId) {
        Deque<Job> queue = queuedByPartner.get(partnerId);
        return queue == null ? 0 : queue.size();
    }

    private boolean acquire(String partnerId) {
        int partner = inFlightByPartner.getOrDefault(partnerId, 0);
        if (inFlight >= maxInFlight || partner >= maxInFlightPerPartner) {
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

    private boolean enqueue(Job job) {
        Deque<Job> queue = queuedByPartner.computeIfAbsent(job.partnerId(), partner -> new ArrayDeque<>());
        if (queue.size() >= maxQueuedPerPartner || queued >= maxQueued) {
            if (queue.isEmpty()) {
                queuedByPartner.remove(job.partnerId());
            }
            return false;
        }
        queue.addLast(job);
        queued++;
        return true;
    }
}

package com.telemed.common.concurrent;

import com.telemed.common.metrics.JobMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A background worker's heartbeat on a thread of its own: runs {@code tick} when woken and at
 * least once per interval. Wake-ups during a tick leave a permit, so work committed while a tick
 * runs is picked up straight after it; however many wake-ups arrive, ticks never overlap. While
 * {@code backingOff} holds (a dependency failing), ticks stay one interval apart whatever wakes
 * them. Used rather than quarkus-scheduler, which checks its triggers once a second, by the outbox
 * relay and by requests-service's fulfilment dispatcher.
 *
 * <p>Every tick counts as a run of the job named {@code name} ({@link JobMetrics}); a tick that
 * throws, or after which {@code backingOff} holds (its dependency failing), counts as a failure.
 */
public final class Ticker {

    private final String name;
    private final long intervalMillis;
    private final Runnable tick;
    private final BooleanSupplier backingOff;
    private final JobMetrics metrics;
    private final Semaphore wakeups = new Semaphore(0);
    private volatile boolean running;
    private Thread thread;

    public Ticker(String name, Duration interval, Runnable tick, BooleanSupplier backingOff) {
        this(name, interval, tick, backingOff, Metrics.globalRegistry);
    }

    /** With the registry its runs are counted in (tests; otherwise Micrometer's global one). */
    public Ticker(String name, Duration interval, Runnable tick, BooleanSupplier backingOff, MeterRegistry registry) {
        this.name = name;
        this.intervalMillis = interval.toMillis();
        this.tick = tick;
        this.backingOff = backingOff;
        this.metrics = JobMetrics.of(registry, name);
    }

    public synchronized void start() {
        running = true;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops ticking: interrupts the thread and waits up to {@code grace} for the tick in progress. */
    public synchronized void stop(Duration grace) throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join(grace.toMillis());
        }
    }

    /** Whether the worker should go on (false once stopping): a tick draining batches checks it between them. */
    public boolean running() {
        return running;
    }

    /** Asks for a tick now. Cheap and safe from any thread. */
    public void wake() {
        wakeups.release();
    }

    /**
     * Asks for a tick once the caller's transaction commits (nothing on rollback), when what it
     * wrote is visible to the worker; registered once per transaction however often it is called.
     */
    public void wakeAfterCommit(TransactionSynchronizationRegistry transactions) {
        if (transactions.getResource(this) != null) {
            return;
        }
        transactions.putResource(this, Boolean.TRUE);
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    wake();
                }
            }
        });
    }

    private void loop() {
        while (running) {
            try {
                if (backingOff.getAsBoolean()) {
                    Thread.sleep(intervalMillis);
                }
                wakeups.tryAcquire(intervalMillis, TimeUnit.MILLISECONDS);
                wakeups.drainPermits();
            } catch (InterruptedException e) {
                return;
            }
            try {
                tick.run();
            } catch (RuntimeException | Error e) {
                metrics.ran(true);
                throw e;
            }
            metrics.ran(backingOff.getAsBoolean());
        }
    }
}

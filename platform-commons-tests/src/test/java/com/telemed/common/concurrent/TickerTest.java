package com.telemed.common.concurrent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The background heartbeat the outbox relay and the fulfilment dispatcher share. */
class TickerTest {

    /** Longer than any of these tests: a tick they see came from a wake-up, not from the interval. */
    private static final Duration LONG = Duration.ofMinutes(10);

    @Test
    void aWakeUpTicksAtOnceAndWakeUpsDuringATickLeaveExactlyOneMore() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        CountDownLatch inFirstTick = new CountDownLatch(1);
        CountDownLatch releaseFirstTick = new CountDownLatch(1);
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger overlap = new AtomicInteger();
        Ticker ticker = new Ticker("ticker-test", LONG, () -> {
            if (concurrent.incrementAndGet() > 1) {
                overlap.incrementAndGet();
            }
            if (ticks.incrementAndGet() == 1) {
                inFirstTick.countDown();
                try {
                    releaseFirstTick.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            concurrent.decrementAndGet();
        }, () -> false);
        ticker.start();
        try {
            ticker.wake();
            assertTrue(inFirstTick.await(10, TimeUnit.SECONDS));
            for (int i = 0; i < 5; i++) {
                ticker.wake();
            }
            releaseFirstTick.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() == 2);
            // Five wake-ups during a tick make one more tick, and no third.
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> ticks.get() == 2);
            assertEquals(0, overlap.get());
        } finally {
            ticker.stop(Duration.ofSeconds(5));
        }
        assertFalse(ticker.running());
    }

    @Test
    void withoutWakeUpsItTicksEveryInterval() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        Ticker ticker = new Ticker("ticker-test", Duration.ofMillis(50), ticks::incrementAndGet, () -> false);
        ticker.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() >= 3);
        } finally {
            ticker.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void everyTickIsARunAndATickLeavingItsDependencyFailingIsAFailure() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicInteger ticks = new AtomicInteger();
        AtomicBoolean failing = new AtomicBoolean();
        // Ticks 2 and 3 leave the dependency failing (as a FailureLog would), tick 4 recovers it.
        Ticker ticker = new Ticker("counted-job", Duration.ofMillis(20),
                () -> failing.set(List.of(2, 3).contains(ticks.incrementAndGet())), failing::get, registry);
        ticker.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.counter("job.runs", "job", "counted-job").count() >= 6);
        } finally {
            ticker.stop(Duration.ofSeconds(5));
        }
        assertEquals(ticks.get(), registry.counter("job.runs", "job", "counted-job").count());
        assertEquals(2.0, registry.counter("job.failures", "job", "counted-job").count());
    }
}

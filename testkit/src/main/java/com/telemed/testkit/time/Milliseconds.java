package com.telemed.testkit.time;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

/** Waiting for the clock, where a test needs records made in distinct milliseconds. */
public final class Milliseconds {

    private Milliseconds() {
    }

    /**
     * Returns once the wall clock reads a later millisecond than when called: a record created
     * after this has a later creation time (services store milliseconds) than one created before.
     */
    public static void awaitNext() {
        long now = System.currentTimeMillis();
        await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(1))
                .until(() -> System.currentTimeMillis() > now);
    }
}

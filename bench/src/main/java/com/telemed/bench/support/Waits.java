package com.telemed.bench.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded waits: every wait of a benchmark has a cap, so a run always ends. */
public final class Waits {

    private Waits() {
    }

    /** Polls every 5 ms until the condition holds or the cap passes; whether it held. */
    public static boolean until(Duration cap, BooleanSupplier condition) throws InterruptedException {
        return until(cap, Duration.ofMillis(5), condition);
    }

    /** Polls every {@code every} (a condition that costs a query) until it holds or the cap passes; whether it held. */
    public static boolean until(Duration cap, Duration every, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + cap.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(every.toMillis());
        }
        return condition.getAsBoolean();
    }
}

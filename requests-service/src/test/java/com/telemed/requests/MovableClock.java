package com.telemed.requests;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The tests' clock in place of the service's (platform-commons {@code time.DefaultClock}): real time plus an offset the
 * test moves forward, so a reminder due in 24 hours is reached at once. Tests that move it put it
 * back ({@link #reset()}) after each test.
 */
public final class MovableClock extends Clock {

    private static volatile Duration offset = Duration.ZERO;

    public static void advance(Duration by) {
        offset = offset.plus(by);
    }

    public static void reset() {
        offset = Duration.ZERO;
    }

    public static Instant now() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now();
    }

    /** Replaces the service's clock bean in every test of this module. */
    @Singleton
    public static class Producer {

        @Produces
        @Alternative
        @Priority(1)
        @Singleton
        Clock clock() {
            return new MovableClock();
        }
    }
}

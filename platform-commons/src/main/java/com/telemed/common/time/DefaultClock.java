package com.telemed.common.time;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The {@link Clock} of every service: the system's UTC clock, the one copy (requests-service's appointments
 * and reminders, billing-service's "today" read it; issue #43 removed their own {@code time.Clocks}). A
 * {@link DefaultBean}, so a service's tests put theirs in its place with an {@code @Alternative} producer
 * (requests-service's {@code MovableClock}).
 */
@ApplicationScoped
public class DefaultClock {

    @Produces
    @DefaultBean
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}

package com.telemed.billing.time;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The clock that says what "today" is for {@code GET /v1/billing} without a period: the system's, in UTC. */
@ApplicationScoped
public class Clocks {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}

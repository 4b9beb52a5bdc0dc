package com.telemed.requests.time;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The clock of time-driven features (appointments and their reminders): the system's UTC clock;
 * tests put their own in its place, so hours of reminder timing pass without waiting for them.
 */
@ApplicationScoped
public class Clocks {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}

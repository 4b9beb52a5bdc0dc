package com.telemed.common.time;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The {@link Clock} of a service that produces none of its own: the system's UTC clock. A service
 * whose features tell time by a clock produces its own ({@code time.Clocks} in requests-service and
 * billing-service), which takes this one's place, and its tests put a movable one in its place.
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

package com.telemed.common.retention;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.UUID;

/** The rule of this application's retention job, as a service declares its own: 30 days of one run's rows. */
@ApplicationScoped
public class ProbeRetention {

    /** The run whose rows the scheduled job prunes; the other tests prune runs of their own with pruners of their own. */
    static final UUID RUN = UUID.fromString("5c4e1b8e-0f57-4a9c-9d6c-3a0b7d1e2f40");

    static RetentionRule rule(UUID run) {
        return RetentionRule.of("retention_probe", "id", "at", Duration.ofDays(30))
                .where("run = '" + run + "' and state <> 'hold'");
    }

    @Produces
    @Singleton
    RetentionRule probe() {
        return rule(RUN);
    }
}

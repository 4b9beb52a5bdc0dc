package com.telemed.billing.ledger;

import com.telemed.common.retention.RetentionRule;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * How long an applied envelope id stays in {@code consumed_events}, after which platform-commons'
 * retention job deletes it. The ids let a redelivered batch skip its merges (which would change
 * nothing anyway: every merge gives the same rows however often it is applied). A record can come
 * again only while its topic holds it, so the retention must exceed the topics' retention plus the
 * consumers' longest outage; the default, 30 days, is four times the topics' 7. The ledger itself
 * (members, status changes) is a business record and is never pruned.
 */
@ApplicationScoped
public class ConsumedEventsRetention {

    @ConfigMapping(prefix = "billing.consumed-events")
    public interface Config {

        /** {@code BILLING_CONSUMED_EVENTS_RETENTION}. */
        @WithDefault("30d")
        Duration retention();
    }

    @Produces
    @Singleton
    RetentionRule consumedEvents(Config config) {
        return RetentionRule.of("consumed_events", "event_id", "consumed_at", config.retention());
    }
}

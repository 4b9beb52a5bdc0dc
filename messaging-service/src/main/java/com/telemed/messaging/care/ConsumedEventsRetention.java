package com.telemed.messaging.care;

import com.telemed.common.retention.RetentionRule;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * How long a consumed {@code care.events} id stays in {@code consumed_events}, after which
 * platform-commons' retention job deletes it. The ids are there only to recognise a redelivery, and
 * a record can come again only while the topic holds it (a consumer group whose offsets expired
 * reads the topic from its start): the retention must exceed the topic's retention plus the
 * consumer's longest outage. The default, 30 days, is four times the topics' 7.
 */
@ApplicationScoped
public class ConsumedEventsRetention {

    @ConfigMapping(prefix = "messaging.consumed-events")
    public interface Config {

        /** {@code MESSAGING_CONSUMED_EVENTS_RETENTION}. */
        @WithDefault("30d")
        Duration retention();
    }

    @Produces
    @Singleton
    RetentionRule consumedEvents(Config config) {
        return RetentionRule.of("consumed_events", "event_id", "consumed_at", config.retention());
    }
}

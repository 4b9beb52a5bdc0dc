package com.telemed.webhook.retention;

import com.telemed.common.retention.RetentionRule;
import com.telemed.webhook.WebhookConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The partner's event record is kept {@code webhook.event-retention} (30 days, the contract's) and
 * then deleted by platform-commons' retention job: deliveries by {@code created_at}, their attempts
 * with them ({@code ON DELETE CASCADE}), dropped events by {@code at}, and the events partners read
 * from their cursor ({@code events}, V7) by {@code created_at}. A delivery still being attempted
 * ({@code retrying}: a redelivery of an old one) stays until its round ends. The per-partner
 * counters ({@code partner_event_counters}) are never deleted: a partner's sequence never restarts.
 */
@ApplicationScoped
public class EventRecordRetention {

    @Produces
    @Singleton
    RetentionRule deliveries(WebhookConfig config) {
        return RetentionRule.of("deliveries", "id", "created_at", config.eventRetention()).where("status <> 'retrying'");
    }

    @Produces
    @Singleton
    RetentionRule events(WebhookConfig config) {
        return RetentionRule.of("events", "id", "created_at", config.eventRetention());
    }

    @Produces
    @Singleton
    RetentionRule droppedEvents(WebhookConfig config) {
        return RetentionRule.of("dropped_events", "event_id", "at", config.eventRetention());
    }
}

package com.telemed.webhook.delivery;

import com.telemed.webhook.WebhookConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The delivery feature's plain objects as beans: the one {@link RetryPolicy}, of the configured waits. */
public class DeliveryBeans {

    @Produces
    @ApplicationScoped
    RetryPolicy retryPolicy(WebhookConfig config) {
        return new RetryPolicy(config.retryWaits());
    }
}

package com.telemed.webhook.address;

import com.telemed.webhook.WebhookConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The URL rules of the configured environment. */
public class AddressBeans {

    @Produces
    @Singleton
    WebhookUrls webhookUrls(WebhookConfig config) {
        return new WebhookUrls(new AddressPolicy(config.production()));
    }
}

package com.telemed.webhook.settings;

import com.telemed.common.config.ProductionRequirement;
import com.telemed.webhook.WebhookConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;

/**
 * webhook-service's settings production refuses to start without (platform-commons'
 * {@code ProductionSettings} adds them to the datasource's and the trust key's): the environment,
 * exactly {@code sandbox} or {@code production} (a misspelt value used to mean sandbox: no https
 * rule, no SSRF check), and the webhook secret keys, set and none of them the development key.
 */
@Singleton
public class WebhookProductionSettings {

    @Produces
    @Singleton
    ProductionRequirement environment() {
        return ProductionRequirement.oneOf("webhook.environment", "SERVICE_ENVIRONMENT", "sandbox", "production");
    }

    @Produces
    @Singleton
    ProductionRequirement secretKeys(WebhookConfig webhook) {
        return config -> secretKeyRefusals(webhook);
    }

    /** Set, well-formed, and no key (in any position, under any id) the one committed for development. */
    static List<String> secretKeyRefusals(WebhookConfig webhook) {
        SecretKeys keys;
        try {
            keys = SecretKeys.parse(webhook.secretKeys(), webhook.secretEncryptionKey());
        } catch (SecretKeys.Invalid invalid) {
            return List.of(invalid.getMessage());
        }
        List<String> refusals = new ArrayList<>();
        for (SecretKeys.Key key : keys.all()) {
            if (key.isDevelopmentKey()) {
                refusals.add(key.fromLegacySetting()
                        ? SecretKeys.LEGACY_PROPERTY + " (" + SecretKeys.LEGACY_VARIABLE + ") is the development key"
                        : SecretKeys.KEYS_PROPERTY + " (" + SecretKeys.KEYS_VARIABLE + ") holds the development key (id "
                                + key.id() + ")");
            }
        }
        return refusals;
    }
}

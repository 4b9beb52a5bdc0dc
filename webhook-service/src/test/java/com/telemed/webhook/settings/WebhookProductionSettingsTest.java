package com.telemed.webhook.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.webhook.WebhookConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What webhook-service adds to the production check: its environment and its secret keys. */
class WebhookProductionSettingsTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    private static SmallRyeConfig config(Map<String, String> values) {
        // Quarkus's duration syntax (10s, 250ms) for the mapping's other settings, as in the service.
        return new SmallRyeConfigBuilder().withMapping(WebhookConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 100)).build();
    }

    private static List<String> refusals(Map<String, String> values) {
        SmallRyeConfig config = config(values);
        WebhookProductionSettings settings = new WebhookProductionSettings();
        WebhookConfig webhook = config.getConfigMapping(WebhookConfig.class);
        List<String> refusals = new java.util.ArrayList<>(settings.environment().refusals(config));
        refusals.addAll(settings.secretKeys(webhook).refusals(config));
        return refusals;
    }

    @Test
    void nothingSet() {
        assertEquals(List.of("webhook.environment (SERVICE_ENVIRONMENT) is not set (sandbox or production)",
                "webhook.secret-keys (WEBHOOK_SECRET_KEYS) is not set"), refusals(Map.of()));
    }

    @Test
    void theDevelopmentKeyIsRefusedInAnyPositionUnderAnyId() {
        assertEquals(List.of("webhook.secret-keys (WEBHOOK_SECRET_KEYS) holds the development key (id local)"),
                refusals(Map.of("webhook.environment", "production",
                        "webhook.secret-keys", "local:" + SecretKeys.DEVELOPMENT_KEY)));
        assertEquals(List.of("webhook.secret-keys (WEBHOOK_SECRET_KEYS) holds the development key (id old)"),
                refusals(Map.of("webhook.environment", "production",
                        "webhook.secret-keys", "2025-06:" + KEY + ",old:" + SecretKeys.DEVELOPMENT_KEY)));
        assertEquals(List.of("webhook.secret-encryption-key (WEBHOOK_SECRET_ENCRYPTION_KEY) is the development key"),
                refusals(Map.of("webhook.environment", "sandbox", "webhook.secret-keys", "2025-06:" + KEY,
                        "webhook.secret-encryption-key", SecretKeys.DEVELOPMENT_KEY)));
    }

    @Test
    void malformedKeysAndAMisspeltEnvironmentAreRefused() {
        Map<String, String> values = new HashMap<>();
        values.put("webhook.environment", "prodution");
        values.put("webhook.secret-keys", "2025-06:" + KEY + ",oops");
        assertEquals(List.of("webhook.environment (SERVICE_ENVIRONMENT) is \"prodution\", not sandbox or production",
                "webhook.secret-keys (WEBHOOK_SECRET_KEYS) entry 2 is not id:base64-of-32-bytes"), refusals(values));
    }

    @Test
    void aDeploymentsOwnKeysPass() {
        assertEquals(List.of(), refusals(Map.of("webhook.environment", "production", "webhook.secret-keys", "2025-06:" + KEY)));
        // The old single setting alone still starts (an upgrade needs no configuration change).
        assertEquals(List.of(), refusals(Map.of("webhook.environment", "sandbox", "webhook.secret-encryption-key", KEY)));
    }

    /** A misspelt or missing environment turns the SSRF rules on, never off. */
    @Test
    void onlyExactlySandboxTurnsTheSsrfRulesOff() {
        assertFalse(config(Map.of("webhook.environment", "sandbox")).getConfigMapping(WebhookConfig.class).production());
        for (String other : List.of("production", "prodution", "Sandbox", "sandbox ")) {
            assertTrue(config(Map.of("webhook.environment", other)).getConfigMapping(WebhookConfig.class).production(), other);
        }
        assertTrue(config(Map.of()).getConfigMapping(WebhookConfig.class).production());
    }
}

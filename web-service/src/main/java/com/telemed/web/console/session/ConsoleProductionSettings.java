package com.telemed.web.console.session;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.List;

/**
 * The console's setting production refuses to start without (platform-commons' {@code ProductionSettings}):
 * the key its session cookie is sealed with, never the development value committed for the dev, test
 * and local profiles (anyone could forge a session with it), and every key of the list at least
 * {@value SessionSeal#MIN_KEY_LENGTH} characters (as {@link SessionSeal} requires: refused at start rather
 * than at the first sign-in).
 */
@Singleton
public class ConsoleProductionSettings {

    public static final String DEVELOPMENT_KEY = "local-development-console-session-key-not-a-secret";
    static final String PROPERTY = "web.console.session-key";
    static final String VARIABLE = "WEB_CONSOLE_SESSION_KEY";

    @Produces
    @Singleton
    ProductionRequirement sessionKey() {
        ProductionRequirement secret = ProductionRequirement.secret(PROPERTY, VARIABLE, DEVELOPMENT_KEY);
        return config -> {
            List<String> refusals = secret.refusals(config);
            if (!refusals.isEmpty()) {
                return refusals;
            }
            List<String> keys = Arrays.stream(ProductionRequirement.value(config, PROPERTY).orElse("").split(",")).map(String::strip).toList();
            if (keys.contains(DEVELOPMENT_KEY)) {
                return List.of(ProductionRequirement.name(PROPERTY, VARIABLE) + " is the development value");
            }
            if (keys.stream().anyMatch(key -> key.length() < SessionSeal.MIN_KEY_LENGTH)) {
                return List.of(ProductionRequirement.name(PROPERTY, VARIABLE) + " needs at least " + SessionSeal.MIN_KEY_LENGTH
                        + " characters in every key");
            }
            return List.of();
        };
    }
}

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
 * than at the first sign-in). With OpenID Connect on ({@code WEB_CONSOLE_OIDC_ISSUER}), the console's client id
 * and secret at the provider too ({@link ConsoleOidcTenant}): without them no code could be exchanged.
 */
@Singleton
public class ConsoleProductionSettings {

    public static final String DEVELOPMENT_KEY = "local-development-console-session-key-not-a-secret";
    static final String PROPERTY = "web.console.session-key";
    static final String VARIABLE = "WEB_CONSOLE_SESSION_KEY";
    static final String ISSUER = "web.console.oidc.issuer";
    static final String CLIENT_ID = "web.console.oidc.client-id";
    static final String CLIENT_SECRET = "web.console.oidc.client-secret";

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

    @Produces
    @Singleton
    ProductionRequirement oidc() {
        return config -> {
            if (ProductionRequirement.value(config, ISSUER).isEmpty()) {
                return List.of();
            }
            List<String> refusals = new java.util.ArrayList<>();
            if (ProductionRequirement.value(config, CLIENT_ID).isEmpty()) {
                refusals.add(ProductionRequirement.name(CLIENT_ID, "WEB_CONSOLE_OIDC_CLIENT_ID") + " is not set while "
                        + ProductionRequirement.name(ISSUER, "WEB_CONSOLE_OIDC_ISSUER") + " is");
            }
            if (ProductionRequirement.value(config, CLIENT_SECRET).isEmpty()) {
                refusals.add(ProductionRequirement.name(CLIENT_SECRET, "WEB_CONSOLE_OIDC_CLIENT_SECRET") + " is not set while "
                        + ProductionRequirement.name(ISSUER, "WEB_CONSOLE_OIDC_ISSUER") + " is");
            }
            return refusals;
        };
    }
}

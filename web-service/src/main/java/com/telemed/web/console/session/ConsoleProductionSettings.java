package com.telemed.web.console.session;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The console's setting production refuses to start without (platform-commons' {@code ProductionSettings}):
 * the key its session cookie is sealed with, never the development value committed for the dev, test
 * and local profiles (anyone could forge a session with it).
 */
@Singleton
public class ConsoleProductionSettings {

    public static final String DEVELOPMENT_KEY = "local-development-console-session-key-not-a-secret";

    @Produces
    @Singleton
    ProductionRequirement sessionKey() {
        return ProductionRequirement.secret("web.console.session-key", "WEB_CONSOLE_SESSION_KEY", DEVELOPMENT_KEY);
    }
}

package com.telemed.web.console.session;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The console's session ({@code web.console.*}): the key its cookie is sealed with
 * ({@code WEB_CONSOLE_SESSION_KEY}, comma-separated: the first seals, every one opens, so a key rotates
 * without signing everyone out; at least 32 characters each), and how long a session lives: idle
 * ({@code 30m}) and at most ({@code 12h}, the gateway's session token's own lifetime); and how often the
 * live tables refresh ({@code 15} seconds).
 *
 * <p>The key is optional here so that a production start without it is refused by platform-commons'
 * {@code config.ProductionSettings} in its one line ({@link ConsoleProductionSettings}); the development
 * profiles have a committed value.
 */
@ConfigMapping(prefix = "web.console")
public interface ConsoleConfig {

    Optional<List<String>> sessionKey();

    @WithDefault("30m")
    Duration idleTimeout();

    @WithDefault("12h")
    Duration maxAge();

    /** How often a live table (the conversations, the queue) is fetched again by {@code app.js}, in seconds. */
    @WithDefault("15")
    int refreshSeconds();

    /** The OpenID Connect sign-in ({@code web.console.oidc.*}, {@link ConsoleOidcTenant}); off while no issuer is set. */
    Oidc oidc();

    interface Oidc {

        /** The provider's issuer URL ({@code WEB_CONSOLE_OIDC_ISSUER}); its discovery document gives the rest. */
        Optional<String> issuer();

        /** The console's client at the provider ({@code WEB_CONSOLE_OIDC_CLIENT_ID}). */
        Optional<String> clientId();

        /** Its secret ({@code WEB_CONSOLE_OIDC_CLIENT_SECRET}). */
        Optional<String> clientSecret();

        default boolean on() {
            return issuer().filter(issuer -> !issuer.isBlank()).isPresent();
        }
    }

    default List<String> keys() {
        return sessionKey().orElseThrow(() -> new IllegalStateException("web.console.session-key (WEB_CONSOLE_SESSION_KEY) is not set"));
    }
}

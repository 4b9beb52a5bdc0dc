package com.telemed.gateway.identity;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The identity settings of the gateway ({@code PLATFORM_IDENTITY_*}; docs/security.md, "People on
 * /ops"). The sign-in rules themselves (12-hour sessions, five failures per email in 15 minutes)
 * are the contract's (people-and-pages.md), not settings.
 */
@ConfigMapping(prefix = "platform.identity")
public interface IdentityConfig {

    /**
     * Local accounts and their sessions ({@code PLATFORM_IDENTITY_LOCAL_ACCOUNTS}): unset, they are on
     * in {@code sandbox} (and the development profiles) and off with {@code SERVICE_ENVIRONMENT=production};
     * {@code true} or {@code false} decides in every environment ({@link LocalAccounts}).
     */
    Optional<Boolean> localAccounts();

    /** How long the rows of the sign-in limit, and sessions past their expiry, are kept ({@link IdentityRetention}). */
    Retention retention();

    interface Retention {

        /** Sign-in failures older than this are deleted; far more than the limit's 15-minute window. */
        @WithDefault("1d")
        Duration signInFailures();

        /** Sessions are deleted this long after they expired (ended ones too: they expire 12 hours after sign-in). */
        @WithDefault("7d")
        Duration expiredSessions();
    }
}

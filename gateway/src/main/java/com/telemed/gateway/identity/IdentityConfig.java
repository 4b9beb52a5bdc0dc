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

    /** OpenID Connect bearer tokens on {@code /ops} ({@link OidcTokens}); off while no issuer is set. */
    Oidc oidc();

    interface Oidc {

        /**
         * The provider's issuer URL ({@code PLATFORM_IDENTITY_OIDC_ISSUER}), exactly as its tokens'
         * {@code iss} and its discovery document say (quarkus-oidc reads
         * {@code <issuer>/.well-known/openid-configuration} and the keys it names). Unset: OpenID
         * Connect is off, no provider is called, and a token that is neither a session nor a pharmacy
         * key is {@code 401 Invalid token}.
         */
        Optional<String> issuer();

        /**
         * The audience a token must name in {@code aud} ({@code PLATFORM_IDENTITY_OIDC_AUDIENCE}): the
         * back office's client or API identifier at the provider. Production refuses to start with an
         * issuer and no audience ({@link IdentityProductionSettings}).
         */
        Optional<String> audience();

        /**
         * The claim holding the person's roles ({@code PLATFORM_IDENTITY_OIDC_ROLES_CLAIM}, default
         * {@code roles}): an array of strings (or one string), of which the values that name a role
         * ({@code admin}, {@code prescriber}, {@code support}, {@code pharmacy}) count. A nested claim
         * is a path of names separated by {@code /}, as quarkus-oidc's {@code role-claim-path} takes it
         * ({@code realm_access/roles}); a name with a {@code /} or {@code .} of its own in double quotes.
         */
        @WithDefault("roles")
        String rolesClaim();
    }

    interface Retention {

        /** Sign-in failures older than this are deleted; far more than the limit's 15-minute window. */
        @WithDefault("1d")
        Duration signInFailures();

        /** Sessions are deleted this long after they expired (ended ones too: they expire 12 hours after sign-in). */
        @WithDefault("7d")
        Duration expiredSessions();
    }
}

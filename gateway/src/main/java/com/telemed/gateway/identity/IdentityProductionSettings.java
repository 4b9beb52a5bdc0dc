package com.telemed.gateway.identity;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * What production refuses to start without for people on {@code /ops} (platform-commons'
 * {@code ProductionSettings}; people-and-pages.md, "Credentials on /ops"): some way for a person to
 * sign in, local accounts ({@link LocalAccounts}: on unless {@code SERVICE_ENVIRONMENT=production} or
 * {@code PLATFORM_IDENTITY_LOCAL_ACCOUNTS=false}) or OpenID Connect ({@code PLATFORM_IDENTITY_OIDC_ISSUER});
 * and with OpenID Connect on, the audience its tokens must name, without which a token the provider
 * issued to any other of its clients would open {@code /ops}.
 */
@Singleton
public class IdentityProductionSettings {

    static final String LOCAL_ACCOUNTS = "platform.identity.local-accounts";
    static final String ISSUER = "platform.identity.oidc.issuer";
    static final String AUDIENCE = "platform.identity.oidc.audience";

    @Produces
    @Singleton
    ProductionRequirement signIn() {
        return IdentityProductionSettings::refusals;
    }

    static List<String> refusals(Config config) {
        List<String> refusals = new ArrayList<>();
        boolean oidc = ProductionRequirement.value(config, ISSUER).isPresent();
        boolean local = LocalAccounts.enabled(localAccounts(config), config.getOptionalValue("gateway.environment", String.class));
        if (!oidc && !local) {
            refusals.add("neither local accounts (" + ProductionRequirement.name(LOCAL_ACCOUNTS, "PLATFORM_IDENTITY_LOCAL_ACCOUNTS")
                    + ", off in production unless true) nor OpenID Connect ("
                    + ProductionRequirement.name(ISSUER, "PLATFORM_IDENTITY_OIDC_ISSUER") + ") is on: no person could sign in to /ops");
        }
        if (oidc && ProductionRequirement.value(config, AUDIENCE).isEmpty()) {
            refusals.add(ProductionRequirement.name(AUDIENCE, "PLATFORM_IDENTITY_OIDC_AUDIENCE")
                    + " is not set while OpenID Connect is on: a token the provider issued to any of its clients would be taken");
        }
        return refusals;
    }

    /** The local-accounts setting as the identity settings read it; a value that is no boolean fails their own start. */
    private static Optional<Boolean> localAccounts(Config config) {
        try {
            return config.getOptionalValue(LOCAL_ACCOUNTS, Boolean.class);
        } catch (IllegalArgumentException notABoolean) {
            return Optional.empty();
        }
    }
}

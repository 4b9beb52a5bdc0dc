package com.telemed.gateway.identity;

import io.quarkus.oidc.Oidc;
import io.quarkus.oidc.OidcTenantConfig;
import io.quarkus.oidc.runtime.OidcTenantConfig.ApplicationType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * quarkus-oidc's one tenant, from the identity settings ({@code PLATFORM_IDENTITY_OIDC_*}): a
 * "service" application that verifies bearer access tokens only, with the provider's keys (JWKS from
 * its discovery document), its issuer, the configured audience and the token's expiry, and that never
 * asks the provider about a token (no introspection of an opaque token or of a JWT whose key it does
 * not know: such a token is refused). Without an issuer the tenant stays as
 * {@code application.properties} leaves it, disabled: nothing is discovered at start and no provider
 * is ever called. quarkus-oidc fires this event while it builds its tenants at start; a configuration
 * with the default tenant's id replaces that tenant.
 */
@ApplicationScoped
public class OidcTenant {

    /** quarkus-oidc's id of the default tenant ({@code OidcUtils.DEFAULT_TENANT_ID}). */
    static final String DEFAULT_TENANT_ID = "Default";

    static void configure(@Observes Oidc oidc, IdentityConfig identity) {
        IdentityConfig.Oidc settings = identity.oidc();
        tenant(settings).ifPresent(oidc::create);
    }

    /** The tenant the settings describe; empty while no issuer is set (OpenID Connect off). */
    static java.util.Optional<OidcTenantConfig> tenant(IdentityConfig.Oidc settings) {
        return settings.issuer().filter(issuer -> !issuer.isBlank()).map(issuer -> {
            var token = OidcTenantConfig.authServerUrl(issuer.strip())
                    .tenantId(DEFAULT_TENANT_ID)
                    .tenantEnabled(true)
                    .applicationType(ApplicationType.SERVICE)
                    .roles().roleClaimPath(settings.rolesClaim()).end()
                    .token()
                    .allowJwtIntrospection(false)
                    .allowOpaqueTokenIntrospection(false);
            settings.audience().filter(audience -> !audience.isBlank()).ifPresent(audience -> token.audience(audience.strip()));
            return token.end().build();
        });
    }
}

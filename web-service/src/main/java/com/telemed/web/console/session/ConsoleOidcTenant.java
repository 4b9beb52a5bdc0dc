package com.telemed.web.console.session;

import io.quarkus.oidc.Oidc;
import io.quarkus.oidc.OidcTenantConfig;
import io.quarkus.oidc.runtime.OidcTenantConfig.ApplicationType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;

/**
 * quarkus-oidc's one tenant, from the console's settings ({@code WEB_CONSOLE_OIDC_*}, interfaces.md E1): a
 * "web-app" application, the authorization code flow with PKCE, the console's client id and secret, the
 * provider's endpoints from its discovery document. Only {@code GET /console/sign-in/oidc} asks for it
 * ({@link OidcSignInResource}); once the console's own cookie is set, quarkus-oidc's session cookie is
 * removed. Without an issuer the tenant stays as {@code application.properties} leaves it, disabled:
 * nothing is discovered at start and no provider is ever called. quarkus-oidc fires this event while it
 * builds its tenants at start; a configuration with the default tenant's id replaces that tenant.
 */
@ApplicationScoped
public class ConsoleOidcTenant {

    /** quarkus-oidc's id of the default tenant ({@code OidcUtils.DEFAULT_TENANT_ID}). */
    static final String DEFAULT_TENANT_ID = "Default";

    static void configure(@Observes Oidc oidc, ConsoleConfig console) {
        tenant(console.oidc()).ifPresent(oidc::create);
    }

    /** The tenant the settings describe; empty while no issuer is set (OpenID Connect off). */
    static Optional<OidcTenantConfig> tenant(ConsoleConfig.Oidc settings) {
        if (!settings.on()) {
            return Optional.empty();
        }
        var tenant = OidcTenantConfig.authServerUrl(settings.issuer().orElseThrow().strip())
                .tenantId(DEFAULT_TENANT_ID)
                .tenantEnabled(true)
                .applicationType(ApplicationType.WEB_APP)
                .clientId(settings.clientId().orElse("").strip());
        settings.clientSecret().filter(secret -> !secret.isBlank()).ifPresent(secret -> tenant.credentials().secret(secret.strip()).end());
        return Optional.of(tenant
                .authentication()
                .pkceRequired(true)
                // Served over HTTPS behind the gateway, which ends TLS: the cookie of the flow is Secure all the same.
                .cookieForceSecure(true)
                .cookiePath("/console")
                .end()
                .build());
    }
}

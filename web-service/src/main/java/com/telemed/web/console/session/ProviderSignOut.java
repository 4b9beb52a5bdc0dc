package com.telemed.web.console.session;

import io.quarkus.arc.Arc;
import io.quarkus.oidc.OidcConfigurationMetadata;
import io.quarkus.oidc.runtime.TenantConfigBean;
import io.quarkus.oidc.runtime.TenantConfigContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Signing out of the provider too (interfaces.md E1): when OpenID Connect is on and the provider's discovery
 * document names an end-session endpoint, a session signed in through it ends there after the console's
 * cookie is cleared ({@code client_id} and {@code post_logout_redirect_uri} back to the sign-in page). The
 * sign-out form posts to the console, whose answer redirects to the provider: the pages of such a session
 * allow that origin in their {@code form-action} ({@link SessionFilter}), or the browser would stop the redirect.
 */
@ApplicationScoped
public class ProviderSignOut {

    private final ConsoleConfig config;

    public ProviderSignOut(ConsoleConfig config) {
        this.config = config;
    }

    /** The provider's end-session endpoint; empty while OpenID Connect is off or the provider names none. */
    public Optional<URI> endpoint() {
        if (!config.oidc().on()) {
            return Optional.empty();
        }
        TenantConfigBean tenants = Arc.container().instance(TenantConfigBean.class).get();
        TenantConfigContext tenant = tenants == null ? null : tenants.getDefaultTenant();
        OidcConfigurationMetadata metadata = tenant == null ? null : tenant.getOidcMetadata();
        String endSession = metadata == null ? null : metadata.getEndSessionUri();
        if (endSession == null || endSession.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(endSession.strip());
            return "https".equals(uri.getScheme()) || "http".equals(uri.getScheme()) ? Optional.of(uri) : Optional.empty();
        } catch (IllegalArgumentException notAnAddress) {
            return Optional.empty();
        }
    }

    /** The endpoint's origin ({@code https://login.example}), for the pages' {@code form-action}. */
    public Optional<String> origin() {
        return endpoint().map(uri -> uri.getScheme() + "://" + uri.getRawAuthority());
    }

    /** Where the browser goes after the console's cookie is cleared: the endpoint, back to {@code signInPage} afterwards. */
    public Optional<String> redirect(URI signInPage) {
        return endpoint().map(uri -> uri + (uri.getRawQuery() == null ? "?" : "&")
                + "client_id=" + URLEncoder.encode(config.oidc().clientId().orElse("").strip(), StandardCharsets.UTF_8)
                + "&post_logout_redirect_uri=" + URLEncoder.encode(signInPage.toString(), StandardCharsets.UTF_8));
    }
}

package com.telemed.gateway.identity;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Whether local accounts are on (people-and-pages.md, "Credentials on /ops"): on in {@code sandbox}
 * and the development profiles, off in {@code production} unless
 * {@code PLATFORM_IDENTITY_LOCAL_ACCOUNTS=true}. Off, {@code /ops/v1/accounts} and
 * {@code /ops/v1/sessions} answer {@code 404} and a session token ({@code ops_...}) is
 * {@code 401 Invalid token} at the edge. The environment is read as a setting here (not through the
 * edge's configuration) so that this feature does not depend on {@code edge}, which depends on it.
 */
@ApplicationScoped
public class LocalAccounts {

    private boolean enabled;

    @Inject
    public LocalAccounts(IdentityConfig config,
                         @ConfigProperty(name = "gateway.environment") Optional<String> environment) {
        this(enabled(config.localAccounts(), environment));
    }

    /** Decided already (tests put one in place of the bean with {@code QuarkusMock}). */
    LocalAccounts(boolean enabled) {
        this.enabled = enabled;
    }

    /** The rule, for the unit test: an explicit setting wins; otherwise on outside {@code production}. */
    static boolean enabled(Optional<Boolean> setting, Optional<String> environment) {
        return setting.orElseGet(() -> !environment.map("production"::equals).orElse(false));
    }

    public boolean enabled() {
        return enabled;
    }
}

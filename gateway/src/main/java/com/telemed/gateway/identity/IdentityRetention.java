package com.telemed.gateway.identity;

import com.telemed.common.retention.RetentionRule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * What platform-commons' retention job deletes of this feature's rows: sign-in failures long past
 * the limit's window (a spray of made-up emails leaves one row each), and sessions long past their
 * expiry. Accounts and pharmacy credentials are never pruned.
 */
@ApplicationScoped
public class IdentityRetention {

    @Produces
    @Singleton
    RetentionRule signInFailures(IdentityConfig config) {
        return RetentionRule.of("sign_in_failures", "id", "at", config.retention().signInFailures());
    }

    @Produces
    @Singleton
    RetentionRule expiredSessions(IdentityConfig config) {
        return RetentionRule.of("sessions", "token_hash", "expires_at", config.retention().expiredSessions());
    }
}

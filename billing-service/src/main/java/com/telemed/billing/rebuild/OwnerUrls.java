package com.telemed.billing.rebuild;

import io.smallrye.config.ConfigMapping;

/**
 * Where the rebuild reads the owners' data. The URLs default to {@code ${SERVICE_URLS_MEMBERS}} /
 * {@code ${SERVICE_URLS_REQUESTS}} in application.properties; timeouts, retries and the circuit
 * breaker are the platform's one policy ({@code platform.remote.*}, platform-commons
 * {@link com.telemed.common.remote.RemoteConfig}).
 */
@ConfigMapping(prefix = "billing.remote")
public interface OwnerUrls {

    /** members-service's base URL. */
    String membersUrl();

    /** requests-service's base URL. */
    String requestsUrl();
}

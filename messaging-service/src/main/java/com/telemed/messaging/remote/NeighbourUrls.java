package com.telemed.messaging.remote;

import io.smallrye.config.ConfigMapping;

/**
 * Where messaging-service finds the services it calls. The URLs default to
 * {@code ${SERVICE_URLS_MEMBERS}} / {@code ${SERVICE_URLS_REQUESTS}} in application.properties;
 * timeouts, retries and the circuit breaker are the platform's one policy ({@code platform.remote.*},
 * platform-commons {@link com.telemed.common.remote.RemoteConfig}).
 */
@ConfigMapping(prefix = "messaging.remote")
public interface NeighbourUrls {

    /** members-service's base URL. */
    String membersUrl();

    /** requests-service's base URL. */
    String requestsUrl();
}

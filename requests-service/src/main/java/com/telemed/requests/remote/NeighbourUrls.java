package com.telemed.requests.remote;

import io.smallrye.config.ConfigMapping;

/**
 * Where requests-service finds the services it calls. The URLs default to
 * {@code ${SERVICE_URLS_MEMBERS}}, {@code ${SERVICE_URLS_CATALOGUE}} and {@code ${SERVICE_URLS_MESSAGING}} in application.properties
 * (the launcher and deployments set those variables); timeouts, retries and the circuit breaker
 * are the platform's one policy ({@code platform.remote.*}, platform-commons
 * {@link com.telemed.common.remote.RemoteConfig}).
 */
@ConfigMapping(prefix = "requests.remote")
public interface NeighbourUrls {

    /** members-service's base URL. */
    String membersUrl();

    /** catalogue-service's base URL. */
    String catalogueUrl();

    /** messaging-service's base URL ({@code SERVICE_URLS_MESSAGING}): fulfilment's unread-message hold. */
    String messagingUrl();
}

package com.telemed.web.page;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/**
 * Where the web service finds the services it calls: {@code SERVICE_URLS_REQUESTS} (requests-service:
 * bookings, surveys) and {@code SERVICE_URLS_GATEWAY} (the gateway's internal endpoint: a partner's
 * embed origins). Timeouts, retries and the circuit breaker are the platform's one policy
 * ({@code platform.remote.*}, platform-commons {@link com.telemed.common.remote.RemoteConfig}).
 *
 * <p>Optional here so that a production start without them is refused by platform-commons'
 * {@code config.ProductionSettings} in its one line ({@link ServiceUrlsProductionSettings}), not by a
 * configuration error first; the development profiles default to the {@code ./stack} ports.
 */
@ConfigMapping(prefix = "web.service-urls")
public interface ServiceUrls {

    Optional<String> requests();

    Optional<String> gateway();

    default String requestsUrl() {
        return requests().orElseThrow(() -> new IllegalStateException("web.service-urls.requests (SERVICE_URLS_REQUESTS) is not set"));
    }

    default String gatewayUrl() {
        return gateway().orElseThrow(() -> new IllegalStateException("web.service-urls.gateway (SERVICE_URLS_GATEWAY) is not set"));
    }
}

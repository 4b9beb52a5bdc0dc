package com.telemed.members.requests;

import io.smallrye.config.ConfigMapping;

/**
 * Where members-service finds requests-service. {@code url} defaults to
 * {@code ${SERVICE_URLS_REQUESTS:http://127.0.0.1:8081}} in application.properties (the launcher
 * and deployments set that variable); timeouts, retries and the circuit breaker are the
 * platform's one policy ({@code platform.remote.*}, platform-commons
 * {@link com.telemed.common.remote.RemoteConfig}).
 */
@ConfigMapping(prefix = "members.requests-service")
public interface RequestsClientConfig {

    /** Base URL of requests-service's internal port, without a trailing path. */
    String url();
}

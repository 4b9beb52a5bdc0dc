package com.telemed.requests.remote;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How requests-service reaches members-service and catalogue-service. The URLs default to
 * {@code ${SERVICE_URLS_MEMBERS}} / {@code ${SERVICE_URLS_CATALOGUE}} in application.properties
 * (the launcher and deployments set those variables).
 */
@ConfigMapping(prefix = "requests.remote")
public interface RemoteConfig {

    /** members-service's base URL. */
    String membersUrl();

    /** catalogue-service's base URL. */
    String catalogueUrl();

    /** A missing service answers "connection refused" at once; a lost host needs this bound. */
    @WithDefault("1s")
    Duration connectTimeout();

    /** Waiting for an answer, per attempt. */
    @WithDefault("3s")
    Duration readTimeout();

    /** Attempts of a call that is safe to repeat: 2 = one retry after a transient failure. */
    @WithDefault("2")
    int attempts();

    @WithDefault("100ms")
    Duration retryBackoff();
}

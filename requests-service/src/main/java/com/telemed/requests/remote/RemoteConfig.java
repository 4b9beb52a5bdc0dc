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

    CircuitBreaker circuitBreaker();

    /**
     * Per called service: once {@code failureRatio} of the last {@code requestVolume} calls were
     * unavailable (after their retries), calls fail at once with 503 for {@code delay}, then one
     * trial call decides whether to close again. Spares a struggling service the load and
     * partners the wait.
     */
    interface CircuitBreaker {
        @WithDefault("20")
        int requestVolume();

        @WithDefault("0.5")
        double failureRatio();

        @WithDefault("5s")
        Duration delay();
    }
}

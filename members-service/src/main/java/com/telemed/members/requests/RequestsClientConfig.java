package com.telemed.members.requests;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How members-service reaches requests-service. {@code url} defaults to
 * {@code ${SERVICE_URLS_REQUESTS:http://127.0.0.1:8081}} in application.properties (the launcher
 * and deployments set that variable).
 */
@ConfigMapping(prefix = "members.requests-service")
public interface RequestsClientConfig {

    /** Base URL of requests-service's internal port, without a trailing path. */
    String url();

    /** Connecting: a missing service answers "connection refused" at once; a lost host needs this bound. */
    @WithDefault("1s")
    Duration connectTimeout();

    /** Waiting for an answer, per attempt. A member read waits at most attempts x this (plus backoff). */
    @WithDefault("2s")
    Duration readTimeout();

    /** Attempts of a read (both calls are idempotent reads): 2 = one retry after a transient failure. */
    @WithDefault("2")
    int attempts();

    /** Pause before a retry. */
    @WithDefault("100ms")
    Duration retryBackoff();

    CircuitBreaker circuitBreaker();

    /**
     * Once {@code failureRatio} of the last {@code requestVolume} calls were unavailable (after
     * their retry), calls fail at once with 503 for {@code delay}; then one trial call decides.
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

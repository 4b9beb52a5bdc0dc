package com.telemed.common.remote;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The policy of every call one platform service makes to another ({@link RemoteCalls}): one set
 * per calling service, the same for each service it calls. Where to find the called services
 * (their URLs) is each caller's own configuration.
 */
@ConfigMapping(prefix = "platform.remote")
public interface RemoteConfig {

    /** A missing service answers "connection refused" at once; a lost host needs this bound. */
    @WithDefault("1s")
    Duration connectTimeout();

    /** Waiting for an answer, per attempt. */
    @WithDefault("3s")
    Duration readTimeout();

    /** Attempts of a call: 2 = one retry after a transient failure. Every platform call is safe to repeat. */
    @WithDefault("2")
    int attempts();

    /** Pause before a retry. */
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

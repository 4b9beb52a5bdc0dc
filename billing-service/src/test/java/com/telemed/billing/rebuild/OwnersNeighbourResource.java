package com.telemed.billing.rebuild;

import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points billing-service's rebuild at the loopback port where {@link OwnersNeighbour} (a CDI bean
 * of the tests) serves both owners. Short read timeout and backoff; the circuit breaker never opens here.
 */
public class OwnersNeighbourResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        String url = "http://127.0.0.1:" + FreePorts.next();
        return Map.of(
                "billing.remote.members-url", url,
                "billing.remote.requests-url", url,
                "platform.remote.read-timeout", "500ms",
                "platform.remote.attempts", "2",
                "platform.remote.retry-backoff", "50ms",
                "platform.remote.circuit-breaker.request-volume", "1000000");
    }

    @Override
    public void stop() {
        // The server belongs to OwnersNeighbour and stops with the application.
    }
}

package com.telemed.messaging;

import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points messaging-service at the loopback port where {@link MessagingNeighbours} (a CDI bean of
 * the tests) serves members-service and requests-service. Short read timeout and backoff; the
 * circuit breaker never opens here (platform-commons' RemoteServiceTest tests it).
 */
public class MessagingNeighboursResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        String url = "http://127.0.0.1:" + FreePorts.next();
        return Map.of(
                "messaging.remote.members-url", url,
                "messaging.remote.requests-url", url,
                "platform.remote.read-timeout", "500ms",
                "platform.remote.attempts", "2",
                "platform.remote.retry-backoff", "50ms",
                "platform.remote.circuit-breaker.request-volume", "1000000");
    }

    @Override
    public void stop() {
        // The server belongs to MessagingNeighbours and stops with the application.
    }
}

package com.telemed.members;

import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points members-service at the loopback port where {@link FakeRequestsService} (a CDI bean of
 * the tests, so tests can inject and script it) serves requests-service's internal endpoints.
 * Short read timeout so timeout tests stay quick. The application's circuit breaker never opens
 * here (tests of failures would close the way for the tests after them); platform-commons'
 * RemoteServiceTest tests it.
 */
public class FakeRequestsServiceResource implements QuarkusTestResourceLifecycleManager {

    public static final String READ_TIMEOUT_MS = "500";

    @Override
    public Map<String, String> start() {
        return Map.of(
                "members.requests-service.url", "http://127.0.0.1:" + FreePorts.next(),
                "platform.remote.read-timeout", READ_TIMEOUT_MS + "ms",
                "platform.remote.attempts", "2",
                "platform.remote.retry-backoff", "100ms",
                "platform.remote.circuit-breaker.request-volume", "1000000");
    }

    @Override
    public void stop() {
        // The server belongs to FakeRequestsService and stops with the application.
    }
}

package com.telemed.requests;

import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points requests-service at the loopback port where {@link FakeNeighbours} (a CDI bean of the
 * tests) serves members-service's and catalogue-service's internal endpoints. Short read timeout
 * and backoff so availability tests stay quick.
 */
public class FakeNeighboursResource implements QuarkusTestResourceLifecycleManager {

    public static final long READ_TIMEOUT_MS = 500;

    @Override
    public Map<String, String> start() {
        String url = "http://127.0.0.1:" + FreePorts.next();
        return Map.of(
                "requests.remote.members-url", url,
                "requests.remote.catalogue-url", url,
                "requests.remote.messaging-url", url,
                "platform.remote.read-timeout", READ_TIMEOUT_MS + "ms",
                "platform.remote.attempts", "2",
                // Failure tests would open the circuit for the tests after them; platform-commons'
                // RemoteServiceTest tests it.
                "platform.remote.circuit-breaker.request-volume", "1000000",
                "platform.remote.retry-backoff", "50ms",
                // Held automatic and scheduled items come due again quickly in tests.
                "requests.fulfilment.hold-retry", "300ms");
    }

    @Override
    public void stop() {
        // The server belongs to FakeNeighbours and stops with the application.
    }
}

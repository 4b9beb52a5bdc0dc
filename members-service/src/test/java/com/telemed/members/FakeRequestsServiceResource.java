package com.telemed.members;

import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points members-service at the loopback port where {@link FakeRequestsService} (a CDI bean of
 * the tests, so tests can inject and script it) serves requests-service's internal endpoints.
 * Under testkit's test policy ({@link FakeNeighbour#testPolicy}): short read timeout so timeout
 * tests stay quick, and a circuit breaker that never opens.
 */
public class FakeRequestsServiceResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return FakeNeighbour.testPolicy("http://127.0.0.1:" + FreePorts.next(), "platform.service-urls.requests-service");
    }

    @Override
    public void stop() {
        // The server belongs to FakeRequestsService and stops with the application.
    }
}

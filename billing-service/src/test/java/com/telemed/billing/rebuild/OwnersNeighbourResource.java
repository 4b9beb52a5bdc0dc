package com.telemed.billing.rebuild;

import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points billing-service's rebuild at the loopback port where {@link OwnersNeighbour} (a CDI bean of the tests) serves both
 * owners, under the tests' remote policy with a read timeout long enough for a test to hold the owners' answers
 * ({@link FakeNeighbour#hold}) while it checks what billing holds meanwhile (no billing test needs a call to time out).
 */
public class OwnersNeighbourResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = FakeNeighbour.testPolicy("http://127.0.0.1:" + FreePorts.next(), "platform.service-urls.members-service",
                "platform.service-urls.requests-service");
        config.put("platform.remote.read-timeout", "30s");
        return config;
    }

    @Override
    public void stop() {
        // The server belongs to OwnersNeighbour and stops with the application.
    }
}

package com.telemed.requests;

import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points requests-service at the loopback port where {@link FakeNeighbours} (a CDI bean of the
 * tests) serves members-service's and catalogue-service's internal endpoints, under testkit's test
 * policy ({@link FakeNeighbour#testPolicy}: short read timeout and backoff so availability tests stay quick).
 */
public class FakeNeighboursResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = FakeNeighbour.testPolicy("http://127.0.0.1:" + FreePorts.next(), "platform.service-urls.members-service",
                "platform.service-urls.catalogue-service", "platform.service-urls.messaging-service");
        // Held automatic and scheduled items come due again quickly in tests.
        config.put("requests.fulfilment.hold-retry", "300ms");
        return config;
    }

    @Override
    public void stop() {
        // The server belongs to FakeNeighbours and stops with the application.
    }
}

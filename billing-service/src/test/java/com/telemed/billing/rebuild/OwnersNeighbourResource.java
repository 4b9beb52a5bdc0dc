package com.telemed.billing.rebuild;

import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Points billing-service's rebuild at the loopback port where {@link OwnersNeighbour} (a CDI bean of the tests) serves both owners. */
public class OwnersNeighbourResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return FakeNeighbour.testPolicy("http://127.0.0.1:" + FreePorts.next(), "billing.remote.members-url", "billing.remote.requests-url");
    }

    @Override
    public void stop() {
        // The server belongs to OwnersNeighbour and stops with the application.
    }
}

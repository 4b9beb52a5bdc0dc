package com.telemed.messaging;

import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points messaging-service at the loopback port where {@link MessagingNeighbours} (a CDI bean of
 * the tests) serves members-service and requests-service, under testkit's test policy
 * ({@link FakeNeighbour#testPolicy}).
 */
public class MessagingNeighboursResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return FakeNeighbour.testPolicy("http://127.0.0.1:" + FreePorts.next(), "messaging.remote.members-url",
                "messaging.remote.requests-url");
    }

    @Override
    public void stop() {
        // The server belongs to MessagingNeighbours and stops with the application.
    }
}

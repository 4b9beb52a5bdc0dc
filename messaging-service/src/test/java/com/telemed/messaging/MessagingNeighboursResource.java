package com.telemed.messaging;

import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points messaging-service at the loopback port where {@link MessagingNeighbours} (a CDI bean of
 * the tests) serves members-service and requests-service, under testkit's test policy
 * ({@link FakeNeighbour#testPolicy}), with upload slots few enough to fill ({@code UploadSlotsTest}).
 */
public class MessagingNeighboursResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = FakeNeighbour.testPolicy("http://127.0.0.1:" + FreePorts.next(), "platform.service-urls.members-service",
                "platform.service-urls.requests-service");
        // Small enough for UploadSlotsTest to fill (no other test has more than one upload in flight).
        config.put("messaging.uploads.max-in-flight", "3");
        config.put("messaging.uploads.max-in-flight-per-partner", "2");
        return config;
    }

    @Override
    public void stop() {
        // The server belongs to MessagingNeighbours and stops with the application.
    }
}

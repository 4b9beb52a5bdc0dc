package com.telemed.requests.fulfilment;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A real HTTP pharmacy (WireMock on a loopback port) behind {@code integration_a}, in a production
 * deployment: orders go to it, not to the sandbox pharmacy. {@code integration_b} has no endpoint.
 * The pharmacy answers within {@link #TIMEOUT_MS} or the order is unavailable (generous: a loaded
 * two-core machine once took over a second to answer a stubbed 503).
 */
public class PharmacyServerResource implements QuarkusTestResourceLifecycleManager {

    static final long TIMEOUT_MS = 2_500;
    static final String ORDERS = "/orders";

    private static volatile WireMockServer server;

    static WireMockServer server() {
        return server;
    }

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        return Map.of(
                "requests.pharmacy.environment", "production",
                "requests.pharmacy.integration-a-url", "http://127.0.0.1:" + server.port() + ORDERS,
                "requests.pharmacy.timeout", TIMEOUT_MS + "ms");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}

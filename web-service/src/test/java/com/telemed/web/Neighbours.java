package com.telemed.web;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The services the web service calls, stood up as real HTTP servers on loopback (WireMock): one for
 * requests-service, one for the gateway's internal endpoint. Every test class of the module names this
 * resource alike, so the module boots Quarkus once; each test stubs what it needs after
 * {@link #reset()}.
 */
public class Neighbours implements QuarkusTestResourceLifecycleManager {

    private static volatile WireMockServer requests;
    private static volatile WireMockServer gateway;

    public static WireMockServer requests() {
        return requests;
    }

    public static WireMockServer gateway() {
        return gateway;
    }

    /** Forgets every stub and recorded call of both. */
    public static void reset() {
        requests.resetAll();
        gateway.resetAll();
    }

    @Override
    public Map<String, String> start() {
        requests = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
        gateway = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
        requests.start();
        gateway.start();
        return Map.of(
                "web.service-urls.requests", "http://127.0.0.1:" + requests.port(),
                "web.service-urls.gateway", "http://127.0.0.1:" + gateway.port(),
                // A refused call is not tried again after a pause: the tests that make one stay quick.
                "platform.remote.retry-backoff", "10ms");
    }

    @Override
    public void stop() {
        if (requests != null) {
            requests.stop();
        }
        if (gateway != null) {
            gateway.stop();
        }
    }
}

package com.telemed.web;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.net.InetAddress;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;

/**
 * The services the web service calls, stood up as real HTTP servers on loopback (WireMock): one for
 * requests-service, one for the gateway's internal endpoint; and an OpenID Connect provider (nav's
 * mock-oauth2-server, issuer {@value #OIDC_ISSUER}) for the console's code flow, so the console's OpenID
 * Connect sign-in is on in every test. Every test class of the module names this
 * resource alike, so the module boots Quarkus once; each test stubs what it needs after
 * {@link #reset()}.
 */
public class Neighbours implements QuarkusTestResourceLifecycleManager {

    /** The provider's issuer id (its issuer URL's last segment) and the console's client there. */
    public static final String OIDC_ISSUER = "console";
    public static final String OIDC_CLIENT_ID = "telemed-console";
    public static final String OIDC_CLIENT_SECRET = "telemed-console-test-secret";

    private static volatile WireMockServer requests;
    private static volatile WireMockServer gateway;
    private static volatile MockOAuth2Server oidc;

    public static WireMockServer requests() {
        return requests;
    }

    public static WireMockServer gateway() {
        return gateway;
    }

    public static MockOAuth2Server oidc() {
        return oidc;
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
        oidc = new MockOAuth2Server();
        oidc.start(InetAddress.getLoopbackAddress(), 0);
        return Map.of(
                "web.service-urls.requests", "http://127.0.0.1:" + requests.port(),
                "web.service-urls.gateway", "http://127.0.0.1:" + gateway.port(),
                "web.console.oidc.issuer", oidc.issuerUrl(OIDC_ISSUER).toString(),
                "web.console.oidc.client-id", OIDC_CLIENT_ID,
                "web.console.oidc.client-secret", OIDC_CLIENT_SECRET,
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
        if (oidc != null) {
            oidc.shutdown();
        }
    }
}

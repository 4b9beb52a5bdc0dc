package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** What the gateway adds to platform-commons' production check. */
class GatewayProductionSettingsTest {

    private static List<String> refusals(Map<String, String> values) {
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
        GatewayProductionSettings settings = new GatewayProductionSettings();
        List<String> refusals = new ArrayList<>(settings.environment().refusals(config));
        refusals.addAll(settings.operatorKey().refusals(config));
        refusals.addAll(settings.trustedProxies().refusals(config));
        return refusals;
    }

    @Test
    void theEnvironmentAndTheOperatorKey() {
        assertEquals(List.of("gateway.environment (SERVICE_ENVIRONMENT) is not set (sandbox or production)",
                "gateway.ops-api-key (OPS_API_KEY) is not set"), refusals(Map.of()));
        assertEquals(List.of("gateway.environment (SERVICE_ENVIRONMENT) is \"Sandbox\", not sandbox or production"),
                refusals(Map.of("gateway.environment", "Sandbox", "gateway.ops-api-key", "ops_3f9a")));
        assertEquals(List.of(), refusals(Map.of("gateway.environment", "production", "gateway.ops-api-key", "ops_3f9a")));
    }

    /** Issue #38: with proxy forwarding on, the trusted proxies must be named (Quarkus trusts every peer otherwise). */
    @Test
    void proxyForwardingNeedsTrustedProxies() {
        Map<String, String> deployment = Map.of("gateway.environment", "production", "gateway.ops-api-key", "ops_3f9a");
        Map<String, String> forwarding = new java.util.HashMap<>(deployment);
        forwarding.put("quarkus.http.proxy.proxy-address-forwarding", "true");
        assertEquals(List.of("quarkus.http.proxy.trusted-proxies (GATEWAY_TRUSTED_PROXIES) is not set while proxy forwarding is on"
                + " (GATEWAY_PROXY_FORWARDING): every peer's X-Forwarded-For would be believed"), refusals(forwarding));
        forwarding.put("quarkus.http.proxy.trusted-proxies", " ");
        assertEquals(1, refusals(forwarding).size());
        forwarding.put("quarkus.http.proxy.trusted-proxies", "10.244.0.0/16");
        assertEquals(List.of(), refusals(forwarding));
        Map<String, String> off = new java.util.HashMap<>(deployment);
        off.put("quarkus.http.proxy.proxy-address-forwarding", "false");
        assertEquals(List.of(), refusals(off));
    }
}

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
}

package com.telemed.requests.fulfilment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** What requests-service adds to platform-commons' production check: whether prescriptions reach real pharmacies. */
class FulfilmentProductionSettingsTest {

    private static List<String> refusals(Map<String, String> values) {
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
        return new FulfilmentProductionSettings().environment().refusals(config);
    }

    @Test
    void theEnvironmentIsExactlySandboxOrProduction() {
        assertEquals(List.of("requests.pharmacy.environment (SERVICE_ENVIRONMENT) is not set (sandbox or production)"),
                refusals(Map.of()));
        assertEquals(List.of("requests.pharmacy.environment (SERVICE_ENVIRONMENT) is \"live\", not sandbox or production"),
                refusals(Map.of("requests.pharmacy.environment", "live")));
        assertEquals(List.of(), refusals(Map.of("requests.pharmacy.environment", "production")));
        assertEquals(List.of(), refusals(Map.of("requests.pharmacy.environment", "sandbox")));
    }
}

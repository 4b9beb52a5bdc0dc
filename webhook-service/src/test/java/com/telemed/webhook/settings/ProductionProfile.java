package com.telemed.webhook.settings;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The production configuration: SSRF rules on. */
public class ProductionProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("webhook.environment", "production");
    }
}

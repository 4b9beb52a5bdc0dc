package com.telemed.web.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** Production refuses to start without the two service URLs (beside the trust key, platform-commons'). */
class ServiceUrlsProductionSettingsTest {

    static Config config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
    }

    @Test
    void bothUrlsAreRequired() {
        ServiceUrlsProductionSettings settings = new ServiceUrlsProductionSettings();
        Config none = config(Map.of("web.service-urls.requests", " ", "web.service-urls.gateway", ""));
        assertEquals(List.of("web.service-urls.requests (SERVICE_URLS_REQUESTS) is not set"), settings.requestsUrl().refusals(none));
        assertEquals(List.of("web.service-urls.gateway (SERVICE_URLS_GATEWAY) is not set"), settings.gatewayUrl().refusals(none));
        Config set = config(Map.of("web.service-urls.requests", "http://requests-service:8080",
                "web.service-urls.gateway", "http://gateway:8080"));
        assertEquals(List.of(), settings.requestsUrl().refusals(set));
        assertEquals(List.of(), settings.gatewayUrl().refusals(set));
    }
}

package com.telemed.common.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one shape of neighbour URLs: {@code platform.service-urls.<called service>}, read by the service's name. */
class ServiceUrlsTest {

    private static ServiceUrls urls(Map<String, String> values) {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(ServiceUrls.class)
                .withSources(new PropertiesConfigSource(values, "test", 100)).build();
        return config.getConfigMapping(ServiceUrls.class);
    }

    @Test
    void eachCalledServiceByItsName() {
        ServiceUrls urls = urls(Map.of("platform.service-urls.members-service", "http://members:8080",
                "platform.service-urls.requests-service", "http://requests:8080", "platform.remote.attempts", "2"));
        assertEquals("http://members:8080", urls.of("members-service"));
        assertEquals("http://requests:8080", urls.of("requests-service"));
        assertEquals(Map.of("members-service", "http://members:8080", "requests-service", "http://requests:8080"), urls.all());
    }

    @Test
    void aServiceLeftUnsetOrBlankIsNamed() {
        ServiceUrls urls = urls(Map.of("platform.service-urls.members-service", " "));
        assertEquals("platform.service-urls.members-service is not set",
                assertThrows(IllegalStateException.class, () -> urls.of("members-service")).getMessage());
        assertEquals("platform.service-urls.catalogue-service is not set",
                assertThrows(IllegalStateException.class, () -> urls.of("catalogue-service")).getMessage());
        assertEquals(Map.of(), urls(Map.of()).all());
    }
}

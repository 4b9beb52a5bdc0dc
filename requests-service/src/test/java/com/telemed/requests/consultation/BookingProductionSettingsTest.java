package com.telemed.requests.consultation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/**
 * Booking links in production (issue #38): the public base is required, and the service's own
 * settings give it a value under the development profiles only, so a deployment that forgot
 * BOOKING_BASE_URL refuses to start instead of handing patients links to localhost.
 */
class BookingProductionSettingsTest {

    private static List<String> refusals(Map<String, String> values) {
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
        return new BookingProductionSettings().bookingBaseUrl().refusals(config);
    }

    /** requests-service's application.properties under {@code profile}, with no environment variable set. */
    private static Optional<String> baseUrlUnder(String profile) throws IOException {
        URL properties = BookingProductionSettingsTest.class.getResource("/application.properties");
        SmallRyeConfig config = new SmallRyeConfigBuilder().withProfile(profile).addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, 250)).build();
        return config.getOptionalValue("requests.booking.base-url", String.class);
    }

    @Test
    void productionRefusesToStartWithoutTheBaseOfBookingLinks() {
        assertEquals(List.of("requests.booking.base-url (BOOKING_BASE_URL) is not set"), refusals(Map.of()));
        assertEquals(List.of(), refusals(Map.of("requests.booking.base-url", "https://api.example.com")));
    }

    @Test
    void onlyTheDevelopmentProfilesDefaultToLocalhost() throws IOException {
        assertEquals(Optional.empty(), baseUrlUnder("prod"));
        assertEquals(Optional.of("http://localhost:8080"), baseUrlUnder("local"));
        assertEquals(Optional.of("http://localhost:8080"), baseUrlUnder("test"));
    }
}

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

    private static Config config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
    }

    private static List<String> refusals(Map<String, String> values) {
        return new FulfilmentProductionSettings().environment().refusals(config(values));
    }

    private static List<String> pharmacyRefusals(String environment, String... settings) {
        Map<String, String> values = new java.util.HashMap<>();
        values.put("requests.pharmacy.environment", environment);
        for (int i = 0; i < settings.length; i += 2) {
            values.put("requests.pharmacy." + settings[i], settings[i + 1]);
        }
        return new FulfilmentProductionSettings().pharmacies().refusals(config(values));
    }

    private static final String SECRET = "a-pharmacy-secret-of-32-characters-at-least";

    @Test
    void theEnvironmentIsExactlySandboxOrProduction() {
        assertEquals(List.of("requests.pharmacy.environment (SERVICE_ENVIRONMENT) is not set (sandbox or production)"),
                refusals(Map.of()));
        assertEquals(List.of("requests.pharmacy.environment (SERVICE_ENVIRONMENT) is \"live\", not sandbox or production"),
                refusals(Map.of("requests.pharmacy.environment", "live")));
        assertEquals(List.of(), refusals(Map.of("requests.pharmacy.environment", "production")));
        assertEquals(List.of(), refusals(Map.of("requests.pharmacy.environment", "sandbox")));
    }

    /**
     * Issue #38: in production an order carries a prescription and the patient's name, birth date and
     * address, so each pharmacy given a URL needs https and its own signing secret. The URL is never
     * quoted (it may carry a credential); the scheme is.
     */
    @Test
    void productionRefusesAPharmacyUrlThatIsNotHttpsOrHasNoSecret() {
        assertEquals(List.of("requests.pharmacy.integration-a-url (PHARMACY_INTEGRATION_A_URL) has scheme \"http\"; production needs https"),
                pharmacyRefusals("production", "integration-a-url", "http://pharmacy-a.example/orders", "integration-a-secret", SECRET));
        assertEquals(List.of(
                        "requests.pharmacy.email-url (PHARMACY_EMAIL_URL) has no scheme; production needs https",
                        "requests.pharmacy.email-secret (PHARMACY_EMAIL_SECRET) is not set"),
                pharmacyRefusals("production", "email-url", "pharmacy-mail.example/orders"));
        assertEquals(List.of(
                        "requests.pharmacy.integration-a-url (PHARMACY_INTEGRATION_A_URL) has no host",
                        "requests.pharmacy.integration-a-secret (PHARMACY_INTEGRATION_A_SECRET) is the development value",
                        "requests.pharmacy.integration-b-secret (PHARMACY_INTEGRATION_B_SECRET) is shorter than 32 characters"),
                pharmacyRefusals("production", "integration-a-url", "https:///orders",
                        "integration-a-secret", "local-development-pharmacy-secret-not-a-secret",
                        "integration-b-url", "https://pharmacy-b.example/orders", "integration-b-secret", "short"));
        assertEquals(List.of("requests.pharmacy.integration-b-url (PHARMACY_INTEGRATION_B_URL) is not a URL; production needs https"),
                pharmacyRefusals("production", "integration-b-url", "https://pharmacy b.example/", "integration-b-secret", SECRET));
    }

    @Test
    void anHttpsPharmacyWithItsSecretStartsAndASandboxIsNotChecked() {
        assertEquals(List.of(), pharmacyRefusals("production",
                "integration-a-url", "https://pharmacy-a.example/orders", "integration-a-secret", SECRET,
                "email-url", "HTTPS://mail-gateway.example:8443/orders", "email-secret", SECRET + "-email"));
        assertEquals(List.of(), pharmacyRefusals("production"));
        assertEquals(List.of(), pharmacyRefusals("production", "integration-b-secret", "short"));
        // A sandbox deployment sends every order to the sandbox pharmacy: its URLs are never used.
        assertEquals(List.of(), pharmacyRefusals("sandbox", "integration-a-url", "http://127.0.0.1:9000/orders"));
    }
}

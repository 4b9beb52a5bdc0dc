package com.telemed.requests.pharmacy;

import java.util.Optional;

/**
 * The HTTP pharmacies a production deployment may post orders to, one per {@code pharmacy.method}
 * (requests-service README, "Pharmacies and the order"): each has its URL and its own signing secret,
 * {@code PHARMACY_<NAME>_URL} and {@code PHARMACY_<NAME>_SECRET}.
 */
public enum PharmacyEndpoint {

    INTEGRATION_A("integration_a", "integration-a", "PHARMACY_INTEGRATION_A"),
    INTEGRATION_B("integration_b", "integration-b", "PHARMACY_INTEGRATION_B"),
    /** The secure-email pharmacies' gateway, spoken to with the same protocol. */
    EMAIL("email", "email", "PHARMACY_EMAIL");

    private final String method;
    private final String key;
    private final String variable;

    PharmacyEndpoint(String method, String key, String variable) {
        this.method = method;
        this.key = key;
        this.variable = variable;
    }

    /** The drug's {@code pharmacy.method} this endpoint serves. */
    public String method() {
        return method;
    }

    public String urlProperty() {
        return PharmacyConfig.PREFIX + "." + key + "-url";
    }

    public String urlVariable() {
        return variable + "_URL";
    }

    public String secretProperty() {
        return PharmacyConfig.PREFIX + "." + key + "-secret";
    }

    public String secretVariable() {
        return variable + "_SECRET";
    }

    public Optional<String> url(PharmacyConfig config) {
        return switch (this) {
            case INTEGRATION_A -> config.integrationAUrl();
            case INTEGRATION_B -> config.integrationBUrl();
            case EMAIL -> config.emailUrl();
        };
    }

    public Optional<String> secret(PharmacyConfig config) {
        return switch (this) {
            case INTEGRATION_A -> config.integrationASecret();
            case INTEGRATION_B -> config.integrationBSecret();
            case EMAIL -> config.emailSecret();
        };
    }
}

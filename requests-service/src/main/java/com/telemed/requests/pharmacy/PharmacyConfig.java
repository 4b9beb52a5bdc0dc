package com.telemed.requests.pharmacy;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The deployment's pharmacies (decisions.md, "Environments"): {@code sandbox} sends every order to
 * the sandbox pharmacy; {@code production} posts each to the endpoint configured for the drug's
 * {@code pharmacy.method}, and holds orders for a method without one.
 */
@ConfigMapping(prefix = "requests.pharmacy")
public interface PharmacyConfig {

    /**
     * {@code sandbox} or {@code production} ({@code SERVICE_ENVIRONMENT}). No default outside the
     * development profiles: production refuses to start without exactly one of the two
     * (fulfilment.FulfilmentProductionSettings); only exactly {@code sandbox} uses the sandbox pharmacy.
     */
    Optional<String> environment();

    default boolean sandbox() {
        return environment().filter("sandbox"::equals).isPresent();
    }

    /** How long a pharmacy may take to answer an order. */
    @WithDefault("10s")
    Duration timeout();

    /** {@code PHARMACY_INTEGRATION_A_URL}. */
    Optional<String> integrationAUrl();

    /** {@code PHARMACY_INTEGRATION_B_URL}. */
    Optional<String> integrationBUrl();

    /** {@code PHARMACY_EMAIL_URL}: the secure-email pharmacies' gateway, spoken to with the same protocol. */
    Optional<String> emailUrl();
}

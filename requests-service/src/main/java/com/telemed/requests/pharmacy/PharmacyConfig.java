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
@ConfigMapping(prefix = PharmacyConfig.PREFIX)
public interface PharmacyConfig {

    String PREFIX = "requests.pharmacy";

    /**
     * The signing secret every pharmacy has under the development profiles only ({@code dev},
     * {@code test}, {@code local}); production refuses it (fulfilment.FulfilmentProductionSettings).
     */
    String DEVELOPMENT_SECRET = "local-development-pharmacy-secret-not-a-secret";

    /** The shortest signing secret production accepts (32 characters: as the platform trust key). */
    int SECRET_MIN_LENGTH = 32;

    /**
     * {@code sandbox} or {@code production} ({@code SERVICE_ENVIRONMENT}). No default outside the
     * development profiles: production refuses to start without exactly one of the two
     * (fulfilment.FulfilmentProductionSettings); only exactly {@code sandbox} uses the sandbox pharmacy.
     */
    Optional<String> environment();

    default boolean sandbox() {
        return environment().filter("sandbox"::equals).isPresent();
    }

    /** How long a pharmacy may take to answer an order, its whole answer read. */
    @WithDefault("10s")
    Duration timeout();

    /** {@code PHARMACY_INTEGRATION_A_URL}. */
    Optional<String> integrationAUrl();

    /** {@code PHARMACY_INTEGRATION_B_URL}. */
    Optional<String> integrationBUrl();

    /** {@code PHARMACY_EMAIL_URL}: the secure-email pharmacies' gateway, spoken to with the same protocol. */
    Optional<String> emailUrl();

    /**
     * {@code PHARMACY_INTEGRATION_A_SECRET}: the key of the HMAC-SHA256 each order to that pharmacy
     * is signed with ({@link OrderSignature}). An endpoint without one is not used.
     */
    Optional<String> integrationASecret();

    /** {@code PHARMACY_INTEGRATION_B_SECRET}. */
    Optional<String> integrationBSecret();

    /** {@code PHARMACY_EMAIL_SECRET}. */
    Optional<String> emailSecret();

    /**
     * {@code PHARMACY_MAX_ANSWER_BYTES}: the most of a pharmacy's answer that is read (its protocol's
     * answers are a few hundred bytes); a longer answer is {@code pharmacy_unavailable}.
     */
    @WithDefault("65536")
    int maxAnswerBytes();
}

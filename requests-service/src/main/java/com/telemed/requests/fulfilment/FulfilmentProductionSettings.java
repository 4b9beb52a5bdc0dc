package com.telemed.requests.fulfilment;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Production refuses to start without knowing whether it is the sandbox or production deployment
 * (platform-commons' {@code ProductionSettings}): the answer decides whether prescriptions reach
 * real pharmacies, so it has no default outside the development profiles.
 */
@Singleton
public class FulfilmentProductionSettings {

    @Produces
    @Singleton
    ProductionRequirement environment() {
        return ProductionRequirement.oneOf("requests.pharmacy.environment", "SERVICE_ENVIRONMENT", "sandbox", "production");
    }
}

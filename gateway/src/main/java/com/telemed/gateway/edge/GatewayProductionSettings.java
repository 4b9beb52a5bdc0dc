package com.telemed.gateway.edge;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The gateway's settings production refuses to start without (platform-commons'
 * {@code ProductionSettings} adds them to the datasource's and the trust key's): the environment,
 * exactly {@code sandbox} or {@code production}, and the operator key (without it the back office
 * could not work at all; no development value of it is committed).
 */
@Singleton
public class GatewayProductionSettings {

    @Produces
    @Singleton
    ProductionRequirement environment() {
        return ProductionRequirement.oneOf("gateway.environment", "SERVICE_ENVIRONMENT", "sandbox", "production");
    }

    @Produces
    @Singleton
    ProductionRequirement operatorKey() {
        return ProductionRequirement.secret("gateway.ops-api-key", "OPS_API_KEY");
    }
}

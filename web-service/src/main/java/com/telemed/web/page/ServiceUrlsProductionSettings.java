package com.telemed.web.page;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The web service's own settings production refuses to start without (platform-commons'
 * {@code ProductionSettings} adds them to the trust key): where requests-service and the gateway are.
 * A default would send a deployment's patients to a loopback address that answers nothing.
 */
@Singleton
public class ServiceUrlsProductionSettings {

    @Produces
    @Singleton
    ProductionRequirement requestsUrl() {
        return ProductionRequirement.required("web.service-urls.requests", "SERVICE_URLS_REQUESTS");
    }

    @Produces
    @Singleton
    ProductionRequirement gatewayUrl() {
        return ProductionRequirement.required("web.service-urls.gateway", "SERVICE_URLS_GATEWAY");
    }
}

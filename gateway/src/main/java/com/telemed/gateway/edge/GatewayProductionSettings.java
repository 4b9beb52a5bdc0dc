package com.telemed.gateway.edge;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The gateway's settings production refuses to start without (platform-commons'
 * {@code ProductionSettings} adds them to the datasource's and the trust key's): the environment,
 * exactly {@code sandbox} or {@code production}, the operator key (without it the back office
 * could not work at all; no development value of it is committed), and trusted proxies whenever
 * proxy forwarding is on.
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

    /**
     * Issue #38: proxy forwarding without trusted proxies would take every peer's
     * {@code X-Forwarded-For} as the client (Quarkus trusts all proxies when none is listed), and one
     * script could spend a partner's embed budget for every patient, or hide behind any address.
     */
    @Produces
    @Singleton
    ProductionRequirement trustedProxies() {
        return config -> config.getOptionalValue("quarkus.http.proxy.proxy-address-forwarding", Boolean.class).orElse(false)
                && ProductionRequirement.value(config, "quarkus.http.proxy.trusted-proxies").isEmpty()
                ? List.of("quarkus.http.proxy.trusted-proxies (GATEWAY_TRUSTED_PROXIES) is not set while proxy"
                        + " forwarding is on (GATEWAY_PROXY_FORWARDING): every peer's X-Forwarded-For would be believed")
                : List.of();
    }
}

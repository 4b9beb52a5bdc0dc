package com.telemed.requests.deployment;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/**
 * The deployment's environment ({@code SERVICE_ENVIRONMENT}: {@code sandbox} or {@code production};
 * decisions.md, "Environments"), as the service's other production checks read it
 * (fulfilment.FulfilmentProductionSettings refuses a start without exactly one of the two; the
 * development profiles default to {@code sandbox}). Sandbox-only surfaces ({@code /v1/sandbox},
 * {@code simulation} on a create) fail closed: anything but exactly {@code sandbox} is production.
 */
@ConfigMapping(prefix = "requests.deployment")
public interface DeploymentConfig {

    Optional<String> environment();

    /** Exactly {@code sandbox}. */
    default boolean sandbox() {
        return environment().filter("sandbox"::equals).isPresent();
    }
}

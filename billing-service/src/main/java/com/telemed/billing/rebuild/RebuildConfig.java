package com.telemed.billing.rebuild;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The rebuild's claim on a partner (billing-service README, "rebuild"). */
@ConfigMapping(prefix = "billing.rebuild")
public interface RebuildConfig {

    /**
     * How long a claim stands without being renewed before another rebuild of the partner takes it
     * over. A running rebuild renews it with every page it stages, so this must be longer than one
     * page's call under the remote policy (attempts x (connect + read timeout) + backoff: about 8 s
     * by default): only a rebuild that stopped (its replica killed) loses its claim.
     */
    @WithDefault("2m")
    Duration claimTimeout();
}

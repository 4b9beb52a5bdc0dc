package com.telemed.requests.simulation;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The sandbox simulation's settings (partner-extensions.md, "Sandbox simulation"). Whether the
 * deployment is a sandbox at all is deployment.DeploymentConfig's.
 */
@ConfigMapping(prefix = "requests.sandbox")
public interface SandboxConfig {

    /** The sandbox prescriber: the prescriber with this email, created on first use when none has it. */
    @WithDefault("sandbox-prescriber@sandbox.invalid")
    String prescriberEmail();

    @WithDefault("Sandbox Prescriber")
    String prescriberName();

    Autopilot autopilot();

    interface Autopilot {

        /** Whether this replica runs the autopilot's scheduler (the tests run it by hand). */
        @WithDefault("true")
        boolean enabled();

        /** How often each replica looks for due steps. */
        @WithDefault("1s")
        Duration pollInterval();

        /** Plans one replica claims at once. */
        @WithDefault("20")
        int batchSize();

        /**
         * How long a claim holds a plan: a replica that stops mid-step (a restart) leaves its claim,
         * which another run takes once this has passed.
         */
        @WithDefault("60s")
        Duration lease();

        /** The wait before a step that failed for another reason than the request's state (a neighbour down) is tried again. */
        @WithDefault("10s")
        Duration retryAfter();
    }
}

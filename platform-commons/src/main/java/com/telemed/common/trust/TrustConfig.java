package com.telemed.common.trust;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Trust between services ({@link ServiceProof}). The key is per deployment, from a Secret
 * ({@code PLATFORM_TRUST_KEY}); its development value lives only under the {@code dev}, {@code test}
 * and {@code local} profiles of each service's {@code application.properties}, so a production start
 * without the Secret fails.
 */
@ConfigMapping(prefix = "platform.trust")
public interface TrustConfig {

    /**
     * Build time: whether the service refuses calls without a valid proof ({@link ServiceProofCheck}).
     * Only the gateway, the platform's public edge that authenticates callers itself, sets false.
     */
    @WithDefault("true")
    boolean verify();

    /**
     * The shared HMAC keys, comma-separated, at least {@value ServiceProof#MIN_KEY_LENGTH} characters
     * each (a key cannot hold a comma; surrounding whitespace is ignored). The first signs, every one
     * verifies. A rotation without refused calls takes three rollouts of every service and the
     * gateway: {@code old,new} (all verify the new key before any signs with it), then {@code new,old}
     * (the new key signs), then, once {@code max-skew} has passed, {@code new}. Optional here so that
     * a production start without it is refused by {@code config.ProductionSettings}, one line naming
     * every setting at fault; {@link ServiceTrust} refuses an empty one wherever that check does not run.
     */
    Optional<List<String>> key();

    /** How far a proof's timestamp may be from this service's clock, either way. */
    @WithDefault("60s")
    Duration maxSkew();
}

package com.telemed.requests.consultation;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Booking links (operations-api.md): where the hosted booking page is, and how long a link is valid. */
@ConfigMapping(prefix = "requests.booking")
public interface BookingConfig {

    /**
     * Base URL of the hosted booking page: links are {@code <base>/book/<token>}. Required in
     * production ({@link BookingProductionSettings}); {@code http://localhost:8080} under the
     * development profiles only.
     */
    Optional<String> baseUrl();

    /** How long a booking link is valid (operations-api.md: 7 days by default). */
    @WithDefault("7d")
    Duration validity();
}

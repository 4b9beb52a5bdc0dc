package com.telemed.requests.review;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The deployment's review settings. */
@ConfigMapping(prefix = "requests")
public interface ReviewConfig {

    /** The provider organisation id set on a request when a prescriber first acts (decisions.md). */
    String providerId();

    Booking booking();

    interface Booking {
        /** Base URL of the hosted booking page: links are {@code <base>/book/<token>}. */
        String baseUrl();

        /** How long a booking link is valid (operations-api.md: 7 days by default). */
        @WithDefault("7d")
        Duration validity();
    }
}

package com.telemed.requests.review;

import io.smallrye.config.ConfigMapping;

/** The deployment's review settings (booking links: consultation.BookingConfig). */
@ConfigMapping(prefix = "requests")
public interface ReviewConfig {

    /** The provider organisation id set on a request when a prescriber first acts (decisions.md). */
    String providerId();
}

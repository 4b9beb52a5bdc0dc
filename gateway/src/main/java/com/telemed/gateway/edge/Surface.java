package com.telemed.gateway.edge;

/** Which credential opens a path. */
public enum Surface {
    /** {@code x-api-key}: {@code /v1/**} and {@code /v2/public/**}. */
    PARTNER,
    /** {@code x-service-publishable-key} plus an allow-listed {@code Origin}: {@code /v2/embed/**}. */
    EMBED,
    /** {@code x-ops-key}: {@code /ops/**}. */
    OPS
}

package com.telemed.gateway.edge;

/** Which credential opens a path. */
public enum Surface {
    /** {@code x-api-key}: {@code /v1/**} and {@code /v2/public/**}. */
    PARTNER,
    /** {@code x-service-publishable-key} plus an allow-listed {@code Origin}: {@code /v2/embed/**}. */
    EMBED,
    /** {@code x-ops-key}: {@code /ops/**}. */
    OPS,
    /**
     * No credential, the link is one: {@code /attachments/:token/:fileName} (attachment downloads,
     * partner-api.md). {@code GET} and {@code HEAD} only; forwarded without a partner.
     */
    PUBLIC
}

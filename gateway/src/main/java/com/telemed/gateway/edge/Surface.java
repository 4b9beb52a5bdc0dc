package com.telemed.gateway.edge;

/** Which credential opens a path. */
public enum Surface {
    /** {@code x-api-key}: {@code /v1/**} and {@code /v2/public/**}. */
    PARTNER,
    /** {@code x-service-publishable-key} plus an allow-listed {@code Origin}: {@code /v2/embed/**}. */
    EMBED,
    /** {@code x-ops-key}, or {@code Authorization: Bearer} with a session token or a pharmacy key: {@code /ops/**}. */
    OPS,
    /**
     * No credential, the link is one: {@code /attachments/:token/:fileName} (attachment downloads,
     * partner-api.md). {@code GET} and {@code HEAD} only; forwarded without a partner.
     */
    PUBLIC,
    /**
     * No credential: the platform's own pages, served by web-service ({@code /book/**},
     * {@code /surveys/**}, {@code /assets/**}, {@code /console/**}). {@code GET}, {@code HEAD} and
     * {@code POST} (plain HTML forms) only; forwarded with the original path and query and without a
     * partner, except a hosted survey page ({@code /surveys/:surveyId}) whose {@code key} query
     * parameter is a valid publishable key: that partner, as on {@link #EMBED}.
     */
    PAGE,
    /**
     * A service proof (platform-commons {@code trust}), as every service asks of {@code /internal/**}:
     * the gateway's own internal endpoint, {@code GET /internal/partners/:partnerId/embed-origins}.
     */
    INTERNAL
}

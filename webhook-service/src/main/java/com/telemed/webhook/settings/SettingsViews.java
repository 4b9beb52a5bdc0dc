package com.telemed.webhook.settings;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Wire shapes of the settings endpoints. */
public final class SettingsViews {

    private SettingsViews() {
    }

    /** {@code {url, secret}}: both null for a partner that never saved a URL. */
    public record Settings(String url, String secret) {
    }

    public record Secret(String secret) {
    }

    /** The partner's {@code GET /v1/webhook}: {@code {url, secretSet}}, never the secret. */
    public record Current(String url, boolean secretSet) {
    }

    /**
     * The partner's {@code PUT /v1/webhook}: {@code {url, secret}} when this save generated the secret
     * (the first URL saved: shown then and never again), {@code {url}} afterwards.
     */
    public record Own(String url, @JsonInclude(JsonInclude.Include.NON_NULL) String secret) {
    }
}

package com.telemed.webhook.settings;

/** Wire shapes of the settings endpoints. */
public final class SettingsViews {

    private SettingsViews() {
    }

    /** {@code {url, secret}}: both null for a partner that never saved a URL. */
    public record Settings(String url, String secret) {
    }

    public record Secret(String secret) {
    }
}

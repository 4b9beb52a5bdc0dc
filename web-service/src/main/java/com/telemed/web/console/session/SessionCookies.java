package com.telemed.web.console.session;

/**
 * The console's cookie, {@value #NAME}: only sent back to {@code /console}, never readable by script,
 * only over HTTPS, and not sent with another site's form posts ({@code SameSite=Lax}). No
 * {@code Max-Age}: the sealed value carries its own limits, and the browser forgets it when it closes.
 */
public final class SessionCookies {

    public static final String NAME = "console_session";
    private static final String ATTRIBUTES = "; Path=/console; HttpOnly; Secure; SameSite=Lax";

    private SessionCookies() {
    }

    /** The {@code Set-Cookie} value that stores {@code sealed}. */
    public static String set(String sealed) {
        return NAME + "=" + sealed + ATTRIBUTES;
    }

    /** The {@code Set-Cookie} value that removes it. */
    public static String cleared() {
        return NAME + "=; Max-Age=0" + ATTRIBUTES;
    }
}

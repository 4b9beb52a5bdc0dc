package com.telemed.testkit.platform;

/** A service that did not become ready, with the end of its log. */
public final class PlatformStartException extends RuntimeException {

    public PlatformStartException(String message) {
        super(message);
    }
}

package com.telemed.webhook.delivery;

import java.time.Instant;

/**
 * The result of one attempt. {@code httpStatus} is null when no response arrived; {@code error} is
 * then a fixed description ({@code timeout}, {@code connection failed}, {@code address not allowed}, ...).
 */
public record Outcome(Job job, Instant at, Integer httpStatus, String error, int durationMs) {

    public boolean delivered() {
        return httpStatus != null && httpStatus >= 200 && httpStatus < 300;
    }
}

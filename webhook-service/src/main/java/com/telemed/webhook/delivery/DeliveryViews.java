package com.telemed.webhook.delivery;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Wire shapes of the delivery log (operations-api.md, Webhook deliveries). */
public final class DeliveryViews {

    private DeliveryViews() {
    }

    public record Attempt(Instant at, Integer httpStatus, String error, int durationMs) {
        static Attempt of(DeliveryAttempt attempt) {
            return new Attempt(attempt.at, attempt.httpStatus, attempt.error, attempt.durationMs);
        }
    }

    /** {@code payload} is the body exactly as sent (its JSON text written as is: a JSON object, byte for byte). */
    public record View(UUID id, String event, String status, List<Attempt> attempts, @JsonRawValue String payload,
                       Instant createdAt) {
    }

    public record Log(List<View> deliveries) {
    }

    /** Answer of a redelivery: the delivery, now retrying with a fresh timestamp. */
    public record Redelivered(View delivery) {
    }
}

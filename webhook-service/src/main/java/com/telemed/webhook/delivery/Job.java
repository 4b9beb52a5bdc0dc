package com.telemed.webhook.delivery;

import java.util.UUID;

/**
 * One attempt to make: everything the POST needs, as stored. {@code url} is the partner's URL at
 * claim time (null when the partner cleared it since); {@code roundAttempts} are the attempts made
 * before this one since creation or the last redelivery.
 */
public record Job(UUID id, String partnerId, String url, String body, String signedAt, String signature,
                  int roundAttempts) {

    @Override
    public String toString() {
        // Never the body (patient data) nor the URL.
        return "Job[" + id + "]";
    }
}

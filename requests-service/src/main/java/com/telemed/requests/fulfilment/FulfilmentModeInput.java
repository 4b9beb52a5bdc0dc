package com.telemed.requests.fulfilment;

/** {@code PUT /ops/v1/partners/:id/fulfilment}'s body, bound after {@link FulfilmentSchemas#modeInput}. */
public record FulfilmentModeInput(String mode) {
}

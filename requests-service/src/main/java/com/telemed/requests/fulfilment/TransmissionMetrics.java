package com.telemed.requests.fulfilment;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;

/**
 * {@code pharmacy_transmissions_total{method, outcome, reason}}: every transmission attempt, whoever
 * asked (partner, operator, dispatcher). {@code outcome} is {@code accepted} (the pharmacy took the
 * order), {@code rejected} (it refused it), {@code unavailable} (it could not be reached),
 * {@code held} (a hold stopped it before the pharmacy; retried) or {@code failed} (another refusal
 * that needs an operator); {@code reason} is the refusal code as answered ({@code member_paused},
 * ...), {@code none} when accepted. {@code method} is the item's pharmacy method. All three are
 * fixed sets: no partner, item or pharmacy order id.
 */
@Singleton
public class TransmissionMetrics {

    private final MeterRegistry registry;

    public TransmissionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void accepted(String method) {
        count(method, "accepted", "none");
    }

    void refused(String method, Refusal refusal) {
        String outcome = switch (refusal.code()) {
            case PHARMACY_REJECTED -> "rejected";
            case PHARMACY_UNAVAILABLE -> "unavailable";
            default -> refusal.hold() ? "held" : "failed";
        };
        count(method, outcome, refusal.code().wire());
    }

    private void count(String method, String outcome, String reason) {
        registry.counter("pharmacy.transmissions", "method", method, "outcome", outcome, "reason", reason).increment();
    }
}

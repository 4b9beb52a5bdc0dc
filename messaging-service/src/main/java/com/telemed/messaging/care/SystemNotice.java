package com.telemed.messaging.care;

import java.util.Optional;

/**
 * The status system messages (partner-api.md, Messaging: approved, not approved, consultation
 * requested, visit completed without prescription), by {@code care.events} type. Every other
 * event posts nothing: aggregates would repeat an item's message, and
 * {@code appointment.consultation_requested} always accompanies a consultation event.
 */
final class SystemNotice {

    static final String COMPLETED_WITHOUT_RX = "completed_without_rx";
    /** requests-service's {@code prescriptionName} when no drug resolved. */
    private static final String NO_DRUG = "Medication";

    private SystemNotice() {
    }

    static Optional<String> textFor(CareEvent event) {
        String drug = drugOf(event);
        return switch (event.type()) {
            case "item.approved", "request.approved" -> Optional.of("Your prescription request for " + drug + " has been approved.");
            case "item.denied" -> Optional.of(denied(drug));
            case "request.denied" -> Optional.of(event.data() != null && COMPLETED_WITHOUT_RX.equals(event.data().action())
                    ? "Your visit is complete. No prescription was issued." : denied(drug));
            case "item.consultation_requested", "request.consultation_requested" -> Optional.of(
                    "Your prescriber has requested a consultation about " + drug + " before deciding. You will receive a link to book it.");
            default -> Optional.empty();
        };
    }

    private static String denied(String drug) {
        return "Your prescription request for " + drug + " was not approved.";
    }

    private static String drugOf(CareEvent event) {
        String name = event.webhook() == null ? null : event.webhook().prescriptionName();
        return name == null || name.isBlank() || NO_DRUG.equals(name) ? "your medication" : name;
    }
}

package com.telemed.requests.pharmacy;

/** A pharmacy's answer to an order: accepted with its order reference, rejected with its reason, or unreachable. */
public sealed interface PharmacyAnswer {

    record Accepted(String pharmacyOrderId) implements PharmacyAnswer {
    }

    /** The pharmacy refused the order; {@code reason} is its own text (no patient data is expected in it). */
    record Rejected(String reason) implements PharmacyAnswer {
    }

    /** Timeout, connection failure, a 5xx or an answer that is not the protocol's: nothing is known to be ordered. */
    record Unavailable(String reason) implements PharmacyAnswer {
    }
}

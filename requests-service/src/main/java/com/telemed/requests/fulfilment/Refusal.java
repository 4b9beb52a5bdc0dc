package com.telemed.requests.fulfilment;

/**
 * Why an item was not transmitted, answered as {@code Fulfillment held: <code>: <reason>}
 * (partner-api.md, send-to-pharmacy). A {@link Kind#HOLD} clears by itself (the member becomes
 * active again, a prescriber reads the message, the pharmacy is configured, a neighbour comes
 * back): the dispatcher tries a held automatic or scheduled item again. A {@link Kind#FAILURE}
 * needs a person: the item stays {@code approved} with {@code pharmacySent: false}, the failure is
 * recorded on the item, and an operator resends it. The codes are listed in the README.
 */
public record Refusal(Code code, String reason) {

    public enum Kind { HOLD, FAILURE }

    public enum Code {
        MEMBER_PAUSED(Kind.HOLD),
        MEMBER_CANCELLED(Kind.HOLD),
        UNREAD_PATIENT_MESSAGE(Kind.HOLD),
        PHARMACY_NOT_CONFIGURED(Kind.HOLD),
        /** members-service or messaging-service could not answer: the holds could not be checked. */
        HOLD_CHECK_UNAVAILABLE(Kind.HOLD),
        /** Another send of the item is in flight (a replica's dispatcher, or a concurrent call). */
        TRANSMISSION_IN_PROGRESS(Kind.HOLD),
        MEMBER_NOT_FOUND(Kind.FAILURE),
        NO_PHARMACY(Kind.FAILURE),
        NO_PRESCRIPTION_RECORD(Kind.FAILURE),
        RECORD_DIGEST_MISMATCH(Kind.FAILURE),
        PHARMACY_REJECTED(Kind.FAILURE),
        PHARMACY_UNAVAILABLE(Kind.FAILURE);

        private final Kind kind;

        Code(Kind kind) {
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }

        /** As answered: lower case. */
        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public String text() {
        return "Fulfillment held: " + code.wire() + ": " + reason;
    }

    public boolean hold() {
        return code.kind() == Kind.HOLD;
    }
}

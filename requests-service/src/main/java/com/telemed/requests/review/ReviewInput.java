package com.telemed.requests.review;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/**
 * The prescriber console's bodies (operations-api.md, "Review"), each bound after its
 * {@link ReviewSchemas} schema passed: absent optional fields are {@code null}. An approval's records
 * are public: the sandbox prescriber (simulation.Simulations) signs through the same decision.
 */
public final class ReviewInput {

    private ReviewInput() {
    }

    /** Claim, request a consultation: who acts. */
    record Acting(String prescriberId) {
    }

    record Note(String prescriberId, String text) {
    }

    public record ItemApproval(String prescriberId, Prescription prescription) {
    }

    /** {@code drugId}: the drug chosen now, for a request without items. */
    record RequestApproval(String prescriberId, String drugId, Prescription prescription) {
    }

    /** Deny, complete without a prescription. */
    record WithReason(String prescriberId, String reason) {
    }

    record Dosage(String prescriberId, String skuId) {
    }

    record Withdrawal(String reason) {
    }

    /**
     * What the prescriber signs. {@code quantity} is a number or a text ("30 tablets") and is kept
     * as sent, hence a tree.
     */
    public record Prescription(String skuId, JsonNode quantity, String quantityUnits, int daysSupply, String directions,
                        int refills, boolean dispenseAsWritten, Dose clinicalDose, Integer dosingIntervalDays) {
    }

    public record Dose(BigDecimal value, String unit) {
    }
}

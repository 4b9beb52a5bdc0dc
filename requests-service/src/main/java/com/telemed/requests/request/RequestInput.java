package com.telemed.requests.request;

import com.telemed.requests.member.InlineMember;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code POST /v1/requests}, bound after {@link RequestSchemas#create} passed: absent optional
 * fields are {@code null} (none of them may be sent as null). {@code member} stays a tree ({@link InlineMember}):
 * it goes to members-service as it came, which owns the member's rules.
 */
public record RequestInput(String memberId, InlineMember member, List<ItemInput> items, String caseNotes,
                           String v2SurveyResponseId, String pharmacySendAt, String idempotencyKey,
                           String drugId, String requestedSkuId, String dosage, String requestedSku,
                           DoseInput requestedClinicalDose, SimulationInput simulation) {

    /** One item; also the legacy single-drug body's top-level fields. */
    public record ItemInput(String drugId, String requestedSkuId, String dosage, String requestedSku,
                            DoseInput requestedClinicalDose) {
    }

    public record DoseInput(BigDecimal value, String unit) {
    }

    /**
     * The sandbox autopilot ({@code simulation}; partner-extensions.md, "Sandbox simulation"), accepted
     * in sandbox only: {@code afterSeconds} 0 and {@code ship} false when absent.
     */
    public record SimulationInput(String outcome, Integer afterSeconds, Boolean ship) {

        public int delaySeconds() {
            return afterSeconds == null ? 0 : afterSeconds;
        }

        public boolean shipped() {
            return Boolean.TRUE.equals(ship);
        }
    }

    /** Whether the body is the legacy single-drug one: a top-level {@code drugId} and no {@code items}. */
    public boolean legacySingleDrug() {
        return (items == null || items.isEmpty()) && drugId != null;
    }

    /** The one item: {@code items[0]}, else the legacy top-level single drug, else none (a consultation request). */
    public ItemInput item() {
        if (items != null && !items.isEmpty()) {
            return items.get(0);
        }
        return drugId != null ? new ItemInput(drugId, requestedSkuId, dosage, requestedSku, requestedClinicalDose) : null;
    }
}

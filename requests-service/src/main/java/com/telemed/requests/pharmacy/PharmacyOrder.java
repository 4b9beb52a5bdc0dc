package com.telemed.requests.pharmacy;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.prescription.ClinicalSnapshot;
import java.time.Instant;
import java.util.UUID;

/**
 * What a pharmacy receives (requests-service README, "Pharmacy order"): the frozen prescription
 * record as signed, with its digest, and the patient it ships to. Holds patient data: never log
 * it, nor any part of it.
 *
 * @param orderReference the line item's id: one item is one order, and the pharmacy dedupes a
 *                       repeated post of it (also sent as the {@code Idempotency-Key} header)
 */
@JsonPropertyOrder({"orderReference", "requestId", "method", "pharmacyId", "prescription", "patient", "shipTo"})
public record PharmacyOrder(UUID orderReference, UUID requestId, String method, String pharmacyId,
                            Prescription prescription, Patient patient, JsonNode shipTo) {

    /** The prescription record's frozen fields and the SHA-256 digest taken of them at signing. */
    @JsonPropertyOrder({"recordId", "digest", "drugId", "prescriberId", "issuedAt", "expirationDate", "clinical"})
    public record Prescription(UUID recordId, String digest, String drugId, UUID prescriberId, Instant issuedAt,
                               String expirationDate, ClinicalSnapshot clinical) {
    }

    @JsonPropertyOrder({"memberId", "firstName", "lastName", "dateOfBirth", "gender", "email", "phone"})
    public record Patient(UUID memberId, String firstName, String lastName, String dateOfBirth, String gender,
                          String email, String phone) {
    }
}

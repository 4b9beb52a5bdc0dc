package com.telemed.requests.prescription;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/**
 * The clinical fields of a prescription record as signed (stored as JSON, never updated): the
 * drug name, SKU label, concentration, package size and classification are copied from the
 * catalogue at signing so a later catalogue edit never changes a signed prescription.
 *
 * @param quantity a number or a string, as the prescriber sent it
 */
public record ClinicalSnapshot(
        String drugName,
        String selectedSku,
        String selectedSkuId,
        Concentration concentration,
        BigDecimal packageSize,
        Dose clinicalDose,
        BigDecimal volumeMl,
        BigDecimal deviceUnits,
        Integer dosingIntervalDays,
        JsonNode quantity,
        String quantityUnits,
        int daysSupply,
        String sigText,
        int refills,
        boolean dispenseAsWritten,
        String classification,
        String deaSchedule) {

    public record Concentration(BigDecimal value, String activeUnit, String baseUnit) {
    }

    public record Dose(BigDecimal value, String unit) {
    }
}

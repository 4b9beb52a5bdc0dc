package com.telemed.requests.prescription;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** A prescription record on the wire (partner-api.md, "Prescription record"), and the line item's {@code prescription}. */
public final class PrescriptionViews {

    private PrescriptionViews() {
    }

    @JsonPropertyOrder({"id", "requestId", "lineItemId", "memberId", "prescriberId", "pharmacyId", "drugId", "partnerId",
            "supersedesId", "renewalOfId", "drugName", "selectedSku", "selectedSkuId", "concentration", "packageSize",
            "clinicalDose", "volumeMl", "deviceUnits", "dosingIntervalDays", "quantity", "quantityUnits", "daysSupply",
            "sigText", "refills", "dispenseAsWritten", "classification", "deaSchedule", "status", "voidReason",
            "pharmacyOrderId", "pharmacyProductId", "issuedAt", "expirationDate", "sentToPharmacyAt", "filledAt",
            "cancelledAt", "voidedAt", "createdAt", "updatedAt"})
    public record Record(UUID id, UUID requestId, UUID lineItemId, UUID memberId, UUID prescriberId, String pharmacyId,
                         String drugId, String partnerId, UUID supersedesId, UUID renewalOfId, String drugName,
                         String selectedSku, String selectedSkuId, ClinicalSnapshot.Concentration concentration,
                         BigDecimal packageSize, ClinicalSnapshot.Dose clinicalDose, BigDecimal volumeMl,
                         BigDecimal deviceUnits, Integer dosingIntervalDays, JsonNode quantity, String quantityUnits,
                         int daysSupply, String sigText, int refills, boolean dispenseAsWritten, String classification,
                         String deaSchedule, String status, String voidReason, String pharmacyOrderId,
                         Integer pharmacyProductId, Instant issuedAt, String expirationDate, Instant sentToPharmacyAt,
                         Instant filledAt, Instant cancelledAt, Instant voidedAt, Instant createdAt, Instant updatedAt) {

        public static Record of(PrescriptionRecord record) {
            ClinicalSnapshot c = record.clinical;
            return new Record(record.id, record.requestId, record.lineItemId, record.memberId, record.prescriberId,
                    record.pharmacyId, record.drugId, record.partnerId, record.supersedesId, record.renewalOfId,
                    c.drugName(), c.selectedSku(), c.selectedSkuId(), c.concentration(), c.packageSize(), c.clinicalDose(),
                    c.volumeMl(), c.deviceUnits(), c.dosingIntervalDays(), c.quantity(), c.quantityUnits(), c.daysSupply(),
                    c.sigText(), c.refills(), c.dispenseAsWritten(), c.classification(), c.deaSchedule(), record.status,
                    record.voidReason, record.pharmacyOrderId, record.pharmacyProductId, record.issuedAt,
                    record.expirationDate, record.sentToPharmacyAt, record.filledAt, record.cancelledAt, record.voidedAt,
                    record.createdAt, record.updatedAt);
        }
    }

    /**
     * The line item's {@code prescription}, as signed. {@code unit} is the quantity's unit; the
     * console does not collect {@code form} or {@code route} yet, so they are null.
     */
    @JsonPropertyOrder({"dosage", "quantity", "daysSupply", "directions", "refills", "dispenseAsWritten", "unit", "form",
            "route", "classification", "deaSchedule", "expirationDate", "prescriptionId"})
    public record Prescription(String dosage, JsonNode quantity, int daysSupply, String directions, int refills,
                               boolean dispenseAsWritten, String unit, String form, String route, String classification,
                               String deaSchedule, String expirationDate, UUID prescriptionId) {

        public static Prescription of(PrescriptionRecord record) {
            ClinicalSnapshot c = record.clinical;
            return new Prescription(c.selectedSku(), c.quantity(), c.daysSupply(), c.sigText(), c.refills(),
                    c.dispenseAsWritten(), c.quantityUnits(), null, null, c.classification(), c.deaSchedule(),
                    record.expirationDate, record.id);
        }
    }
}

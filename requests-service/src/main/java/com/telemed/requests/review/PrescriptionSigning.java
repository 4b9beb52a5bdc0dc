package com.telemed.requests.review;

import com.telemed.common.error.ApiException;
import com.telemed.common.validation.Issues;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.prescription.ClinicalSnapshot;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.prescription.RecordDigest;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Mints the {@code issued} prescription record of an approval. The SKU is the one the prescriber
 * sends, else the one chosen by a dosage update, else the one the partner requested (by id, or by
 * its legacy dosage label); it must be an active SKU of the drug. Drug name, SKU label,
 * concentration, package size and classification are copied from the catalogue now and never
 * change afterwards. Part of the review (an approval signs), so the prescription feature below it
 * knows nothing of requests. The record's digest is taken here, once every frozen field is set
 * ({@link RecordDigest}).
 */
final class PrescriptionSigning {

    /** Validity of a prescription: one year, six months for a controlled substance. */
    private static final int MONTHS_VALID = 12;
    private static final int MONTHS_VALID_CONTROLLED = 6;

    /** Where an approval's SKU is sent: {@code prescription.skuId} of the item and request approvals. */
    static final List<Object> SKU_PATH = List.of("prescription", "skuId");
    static final String SKU_REQUIRED = "skuId is required";

    private PrescriptionSigning() {
    }

    static PrescriptionRecord sign(Request request, LineItem item, DrugLookup drug, UUID prescriberId,
                                   ReviewInput.Prescription prescription, Instant at) {
        DrugLookup.Sku sku = sku(item, drug, prescription.skuId());
        ClinicalSnapshot.Concentration concentration = sku == null || sku.concentration() == null ? null
                : new ClinicalSnapshot.Concentration(sku.concentration().path("value").decimalValue(),
                        sku.concentration().path("activeUnit").asText(null), sku.concentration().path("baseUnit").asText(null));
        ClinicalSnapshot.Dose dose = prescription.clinicalDose() == null ? null
                : new ClinicalSnapshot.Dose(prescription.clinicalDose().value(), prescription.clinicalDose().unit());
        String classification = drug.classification();
        ClinicalSnapshot clinical = new ClinicalSnapshot(
                drug.name(),
                sku == null ? null : sku.label(),
                sku == null ? null : sku.id(),
                concentration,
                sku == null ? null : sku.packageSize(),
                dose,
                volumeMl(dose, concentration),
                null,
                prescription.dosingIntervalDays(),
                prescription.quantity(),
                prescription.quantityUnits(),
                prescription.daysSupply(),
                prescription.directions(),
                prescription.refills(),
                prescription.dispenseAsWritten(),
                classification,
                null);
        PrescriptionRecord record = new PrescriptionRecord();
        record.id = UUID.randomUUID();
        record.partnerId = request.partnerId;
        record.requestId = request.id;
        record.lineItemId = item.id;
        record.memberId = request.memberId;
        record.prescriberId = prescriberId;
        record.pharmacyId = item.pharmacyId;
        record.drugId = item.drugId;
        record.clinical = clinical;
        record.status = PrescriptionRecord.ISSUED;
        record.issuedAt = at;
        int months = "controlled".equals(classification) ? MONTHS_VALID_CONTROLLED : MONTHS_VALID;
        record.expirationDate = at.atZone(ZoneOffset.UTC).toLocalDate().plusMonths(months).toString();
        record.createdAt = at;
        record.updatedAt = at;
        // Last, over every frozen field as signed: what the record is checked against from now on.
        record.digest = RecordDigest.of(record);
        record.persist();
        return record;
    }

    /**
     * The SKU to sign: see the class comment. {@code 400} when it is not an active SKU of the drug; when none is
     * sent or chosen and the drug has active SKUs, {@code 400} with one issue at {@code ["prescription","skuId"]},
     * {@code skuId is required: one of <the active SKU ids, in the catalogue's order>}.
     */
    static DrugLookup.Sku sku(LineItem item, DrugLookup drug, String sent) {
        String skuId = sent != null ? sent : item.selectedSkuId != null ? item.selectedSkuId : item.requestedSkuId;
        if (skuId == null && item.dosage != null) {
            skuId = drug.skus().stream().filter(sku -> sku.label().equals(item.dosage)).map(DrugLookup.Sku::id)
                    .findFirst().orElse(null);
        }
        if (skuId == null) {
            List<String> active = drug.skus().stream().filter(DrugLookup.Sku::active).map(DrugLookup.Sku::id).toList();
            if (!active.isEmpty()) {
                // An issue at the field the prescriber fills (the console shows it there), naming what to choose from.
                Issues issues = new Issues();
                issues.custom(SKU_PATH, SKU_REQUIRED + ": one of " + String.join(", ", active));
                issues.throwIfAny();
            }
            return null;
        }
        String chosen = skuId;
        return drug.sku(chosen).filter(DrugLookup.Sku::active)
                .orElseThrow(() -> ApiException.badRequest("Invalid skuId for " + item.drugId + ": " + chosen));
    }

    /** Millilitres per administration, when the dose is in the concentration's active unit and the base unit is mL. */
    private static BigDecimal volumeMl(ClinicalSnapshot.Dose dose, ClinicalSnapshot.Concentration concentration) {
        if (dose == null || concentration == null || concentration.value() == null || concentration.value().signum() <= 0
                || concentration.baseUnit() == null || !"ml".equals(concentration.baseUnit().toLowerCase(Locale.ROOT))
                || !dose.unit().equalsIgnoreCase(concentration.activeUnit())) {
            return null;
        }
        return dose.value().divide(concentration.value(), 4, RoundingMode.HALF_UP).stripTrailingZeros();
    }
}

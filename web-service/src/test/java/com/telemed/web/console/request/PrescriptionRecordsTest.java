package com.telemed.web.console.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.web.ops.OpsApi;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The record a signing will freeze, as the request page previews it from the catalogue. */
class PrescriptionRecordsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final OpsApi.Drug DRUG = new OpsApi.Drug("semaglutide", "Semaglutide", null, null, "non-controlled", List.of(
            new OpsApi.Sku("sku_a", "0.25 mg", JSON.valueToTree(4), JSON.valueToTree(java.util.Map.of("value", 2.5,
                    "activeUnit", "mg", "baseUnit", "mL")), true),
            new OpsApi.Sku("sku_b", "0.5 mg", null, null, true),
            new OpsApi.Sku("sku_old", "1 mg", null, null, false)), new OpsApi.DrugPharmacy("sandbox", "none"));

    private static OpsApi.Item item(String requested, String selected) {
        return new OpsApi.Item("item-1", "semaglutide", "Semaglutide", "0.25 mg", requested, null, selected, "pending", null);
    }

    private static List<String> lines(List<RequestView.Fact> facts) {
        return facts.stream().map(fact -> fact.term() + ": " + fact.value()).toList();
    }

    @Test
    void theRequestedSkuWithItsConcentrationAndPackage() {
        assertEquals(List.of("Drug: Semaglutide", "Classification: non-controlled", "SKU: 0.25 mg (sku_a)",
                "Concentration: 2.5 mg/mL", "Package size: 4"), lines(PrescriptionRecords.record(item("sku_a", null), List.of(DRUG))));
    }

    @Test
    void theSelectedSkuOverTheRequestedOneAndDashesForWhatTheCatalogueDoesNotSay() {
        assertEquals(List.of("Drug: Semaglutide", "Classification: non-controlled", "SKU: 0.5 mg (sku_b)", "Concentration: -",
                "Package size: -"), lines(PrescriptionRecords.record(item("sku_a", "sku_b"), List.of(DRUG))));
    }

    @Test
    void withoutASkuTheActiveOnesTheFormMayName() {
        assertEquals(List.of("Drug: Semaglutide", "Classification: non-controlled", "SKU: Name one in the form: 0.25 mg (sku_a), 0.5 mg (sku_b)"),
                lines(PrescriptionRecords.record(item(null, null), List.of(DRUG))));
    }

    @Test
    void aDrugTheCatalogueLacksOrACatalogueNotRead() {
        OpsApi.Item other = new OpsApi.Item("item-1", "gone", null, null, null, null, null, "pending", null);
        assertEquals(List.of("Drug: gone (not in the catalogue)"), lines(PrescriptionRecords.record(other, List.of(DRUG))));
        assertEquals(List.of("Record: " + PrescriptionRecords.UNREAD), lines(PrescriptionRecords.record(other, List.of())));
    }
}

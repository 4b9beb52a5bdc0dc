package com.telemed.catalogue.drug;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One drug as another service keeps a copy of it ({@code data} of {@code catalogue.drug_changed}, and a
 * drug of the snapshot): the partner-visible record exactly as {@code GET /internal/drugs/:id} answers it,
 * its pharmacy, and the catalogue version of this state of the drug.
 */
@JsonPropertyOrder({"drugId", "version", "drug", "pharmacy"})
public record DrugCopy(String drugId, long version, DrugView drug, Pharmacy pharmacy) {

    public static DrugCopy of(CatalogueDrug drug) {
        return new DrugCopy(drug.drug().id, drug.drug().version, DrugView.of(drug), Pharmacy.of(drug.drug()));
    }
}

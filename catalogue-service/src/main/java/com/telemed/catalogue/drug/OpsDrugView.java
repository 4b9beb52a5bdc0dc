package com.telemed.catalogue.drug;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/** A drug as operators see it: the partner-visible fields plus {@code pharmacy}. */
@JsonPropertyOrder({"id", "name", "description", "defaultAdCopy", "dosages", "skus", "classification", "pharmacy"})
public record OpsDrugView(String id, String name, String description, String defaultAdCopy, List<String> dosages,
                          List<SkuView> skus, String classification, Pharmacy pharmacy) {

    public static OpsDrugView of(CatalogueDrug catalogueDrug) {
        DrugView view = DrugView.of(catalogueDrug);
        return new OpsDrugView(view.id(), view.name(), view.description(), view.defaultAdCopy(), view.dosages(),
                view.skus(), view.classification(), Pharmacy.of(catalogueDrug.drug()));
    }
}

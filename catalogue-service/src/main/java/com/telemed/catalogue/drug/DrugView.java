package com.telemed.catalogue.drug;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The contract's drug record, exactly its fields: what partners see on {@code /v1/drugs} and what
 * other services embed. Never the pharmacy. {@code dosages} are the SKU labels in SKU order.
 */
@JsonPropertyOrder({"id", "name", "description", "defaultAdCopy", "dosages", "skus", "classification"})
public record DrugView(String id, String name, String description, String defaultAdCopy, List<String> dosages,
                       List<SkuView> skus, String classification) {

    public static DrugView of(CatalogueDrug catalogueDrug) {
        Drug drug = catalogueDrug.drug();
        List<Sku> skus = catalogueDrug.skus();
        return new DrugView(drug.id, drug.name, drug.description, drug.defaultAdCopy,
                skus.stream().map(sku -> sku.label).toList(),
                skus.stream().map(SkuView::of).toList(),
                drug.classification);
    }
}

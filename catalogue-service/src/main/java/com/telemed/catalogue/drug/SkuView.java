package com.telemed.catalogue.drug;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;

/** The contract's SKU object: {@code packageSize} and {@code concentration} are omitted when not configured. */
@JsonPropertyOrder({"id", "label", "packageSize", "concentration", "active"})
public record SkuView(
        String id,
        String label,
        @JsonInclude(JsonInclude.Include.NON_NULL) BigDecimal packageSize,
        @JsonInclude(JsonInclude.Include.NON_NULL) Concentration concentration,
        boolean active) {

    static SkuView of(Sku sku) {
        Concentration concentration = sku.concentrationValue == null ? null
                : new Concentration(sku.concentrationValue, sku.concentrationActiveUnit, sku.concentrationBaseUnit);
        return new SkuView(sku.id, sku.label, sku.packageSize, concentration, sku.active);
    }
}

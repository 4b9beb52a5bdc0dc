package com.telemed.catalogue.drug;

import java.math.BigDecimal;
import java.util.List;

/** The body of {@code PUT /ops/v1/drugs/:drugId}, bound once it has passed validation. */
public record DrugInput(String name, String description, String defaultAdCopy, String classification,
                        List<SkuInput> skus, Pharmacy pharmacy) {

    /** A listed SKU: {@code id} absent for a new SKU, else one of the drug's own SKU ids. */
    public record SkuInput(String id, String label, BigDecimal packageSize, Concentration concentration,
                           boolean active) {
    }
}

package com.telemed.catalogue.drug;

import java.util.List;

/** A drug with its SKUs in SKU order, as the service reads it; the views are shaped from this. */
public record CatalogueDrug(Drug drug, List<Sku> skus) {
}

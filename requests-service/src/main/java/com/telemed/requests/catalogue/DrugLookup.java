package com.telemed.requests.catalogue;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * One drug as catalogue-service answers it for a partner: the contract's drug record (kept as
 * JSON, shown to partners as it is), whether the partner may order it, and its pharmacy.
 */
public record DrugLookup(JsonNode drug, boolean orderable, Pharmacy pharmacy) {

    public record Pharmacy(String id, String method) {
    }

    /** A SKU of the drug, as far as requests-service reads it. */
    public record Sku(String id, String label, BigDecimal packageSize, JsonNode concentration, boolean active) {
    }

    @JsonIgnore
    public String name() {
        return drug.path("name").asText(null);
    }

    @JsonIgnore
    public String classification() {
        return drug.path("classification").asText(null);
    }

    @JsonIgnore
    public List<String> dosages() {
        return drug.path("dosages").valueStream().map(JsonNode::asText).toList();
    }

    @JsonIgnore
    public List<Sku> skus() {
        return drug.path("skus").valueStream()
                .map(sku -> new Sku(sku.path("id").asText(), sku.path("label").asText(),
                        sku.hasNonNull("packageSize") ? sku.get("packageSize").decimalValue() : null,
                        sku.hasNonNull("concentration") ? sku.get("concentration") : null,
                        sku.path("active").asBoolean()))
                .toList();
    }

    public Optional<Sku> sku(String skuId) {
        return skus().stream().filter(sku -> sku.id().equals(skuId)).findFirst();
    }
}

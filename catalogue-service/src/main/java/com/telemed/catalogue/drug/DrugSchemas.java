package com.telemed.catalogue.drug;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;

/** Zod-style schemas of the operators' catalogue endpoints (operations-api.md, Catalogue) and their bounds. */
public final class DrugSchemas {

    public static final String CLASSIFICATION_NON_CONTROLLED = "non-controlled";
    public static final String CLASSIFICATION_CONTROLLED = "controlled";
    static final String POSITIVE = "Number must be greater than 0";
    static final String DUPLICATE_SKU_ID = "Duplicate SKU id";
    static final String DUPLICATE_SKU_LABEL = "Duplicate SKU label";

    /*
     * Bounds (README, "Input bounds"): what the columns hold and requests-service's arithmetic
     * (volumeMl = dose / concentration) survives.
     */
    static final int NAME_MAX = 200;
    static final int TEXT_MAX = 10_000;
    /** A SKU label is also the legacy dosage label partners send (requests-service bounds it to 255). */
    static final int LABEL_MAX = 255;
    /** SKU ids are 28 characters; a longer one is never one of the drug's. */
    static final int SKU_ID_MAX = 64;
    static final int UNIT_MAX = 50;
    static final int PHARMACY_ID_MAX = 128;
    static final int SKUS_MAX = 100;
    /** packageSize and concentration.value: numeric columns, copied into every prescription record. */
    static final int AMOUNT_MAX = 1_000_000;
    static final int AMOUNT_DECIMALS = 6;

    /** The path's drug id of {@code PUT /ops/v1/drugs/:drugId}, reported with the body's issues under {@code ["drugId"]}. */
    static final StringSchema DRUG_ID = DrugIds.schema();

    private static final ObjectSchema SKU = object()
            .field("id", string().min(1).max(SKU_ID_MAX).nullable().optional())
            .field("label", string().min(1).max(LABEL_MAX))
            .field("packageSize", positive().nullable().optional())
            .field("concentration", object()
                    .field("value", positive())
                    .field("activeUnit", string().min(1).max(UNIT_MAX))
                    .field("baseUnit", string().min(1).max(UNIT_MAX))
                    .nullable().optional())
            .field("active", bool());

    /** The body of {@code PUT /ops/v1/drugs/:drugId}, bound to {@link DrugInput}. */
    static final ObjectSchema BODY = object()
            .field("name", string().min(1).max(NAME_MAX))
            .field("description", string().max(TEXT_MAX).nullable().optional())
            .field("defaultAdCopy", string().max(TEXT_MAX).nullable().optional())
            .field("classification", enumOf(CLASSIFICATION_NON_CONTROLLED, CLASSIFICATION_CONTROLLED))
            .field("skus", array(SKU).max(SKUS_MAX))
            .field("pharmacy", object()
                    .field("id", string().min(1).max(PHARMACY_ID_MAX))
                    .field("method", enumOf("integration_a", "integration_b", "email", "none")))
            .rule((body, path, issues) -> {
                // Two entries for one SKU, or two SKUs with one label (a legacy dosage label would be ambiguous).
                Set<String> ids = new HashSet<>();
                Set<String> labels = new HashSet<>();
                JsonNode skus = body.get("skus");
                for (int i = 0; i < skus.size(); i++) {
                    JsonNode sku = skus.get(i);
                    if (sku.hasNonNull("id") && !ids.add(sku.get("id").textValue())) {
                        issues.custom(Issues.append(path, "skus", i, "id"), DUPLICATE_SKU_ID);
                    }
                    if (!labels.add(sku.get("label").textValue())) {
                        issues.custom(Issues.append(path, "skus", i, "label"), DUPLICATE_SKU_LABEL);
                    }
                }
            });

    private DrugSchemas() {
    }

    /** Greater than 0 (a {@code custom} issue), at most 1,000,000, at most six decimals. */
    private static NumberSchema positive() {
        return number().max(AMOUNT_MAX).decimals(AMOUNT_DECIMALS)
                .refine(value -> value.decimalValue().compareTo(BigDecimal.ZERO) > 0, POSITIVE);
    }
}

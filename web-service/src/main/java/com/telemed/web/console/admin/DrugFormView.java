package com.telemed.web.console.admin;

import java.util.List;
import java.util.Map;

/**
 * A drug's form ({@code console-drug.html}) for {@code PUT /ops/v1/drugs/{id}}: its fields as the catalogue has
 * them (or as typed, after a refusal), one row per SKU ({@code sku-id-{n}} hidden and kept, {@code sku-label-{n}},
 * {@code sku-active-{n}}) plus the empty rows for new ones, and the gateway's issues next to their fields
 * ({@code errors} by field name: {@code name}, {@code sku-label-2}, ...).
 *
 * @param exists whether the catalogue has the drug (else the form creates it)
 * @param notice what was just done ({@code Drug saved}), or null
 * @param error a refusal about no field, or null
 */
public record DrugFormView(String id, boolean exists, String notice, String error, String name, String description,
                           String classification, String pharmacyId, String pharmacyMethod, List<SkuRow> skus,
                           Map<String, String> errors, String csrf) {

    public static final List<String> CLASSIFICATIONS = List.of("non-controlled", "controlled");
    public static final List<String> METHODS = List.of("integration_a", "integration_b", "email", "none");

    /** A SKU row; {@code id} empty for a new one. */
    public record SkuRow(int n, String id, String label, boolean active, String error) {

        public String idName() {
            return "sku-id-" + n;
        }

        public String labelName() {
            return "sku-label-" + n;
        }

        public String activeName() {
            return "sku-active-" + n;
        }

        public String errorId() {
            return "error-sku-label-" + n;
        }

        public String labelText() {
            return id.isEmpty() ? "New SKU " + (n + 1) + " label" : "SKU " + (n + 1) + " label";
        }

        public String activeText() {
            return id.isEmpty() ? "New SKU " + (n + 1) + " active" : "SKU " + (n + 1) + " active";
        }
    }

    public record Choice(String value, boolean selected) {
    }

    public String action() {
        return "/console/drugs/" + com.telemed.web.page.Pages.encode(id);
    }

    public List<Choice> classificationChoices() {
        return CLASSIFICATIONS.stream().map(value -> new Choice(value, value.equals(classification))).toList();
    }

    public List<Choice> methodChoices() {
        return METHODS.stream().map(value -> new Choice(value, value.equals(pharmacyMethod))).toList();
    }

    public boolean classificationChosen() {
        return CLASSIFICATIONS.contains(classification);
    }

    public boolean methodChosen() {
        return METHODS.contains(pharmacyMethod);
    }

    public String nameError() {
        return errors.get("name");
    }

    public String descriptionError() {
        return errors.get("description");
    }

    public String classificationError() {
        return errors.get("classification");
    }

    public String pharmacyIdError() {
        return errors.get("pharmacyId");
    }

    public String pharmacyMethodError() {
        return errors.get("pharmacyMethod");
    }

    public boolean failed() {
        return error != null || !errors.isEmpty();
    }
}

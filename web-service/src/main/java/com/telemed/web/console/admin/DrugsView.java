package com.telemed.web.console.admin;

import java.util.List;

/**
 * The drugs page ({@code console-drugs.html}): every drug of the catalogue with its SKUs and pharmacy, a link
 * to each drug's form, and the form that opens a drug id (a new one or an existing one).
 */
public record DrugsView(List<Row> rows) {

    /**
     * @param skus each SKU as {@code label (id, active|inactive)}, separated by {@code "; "}
     * @param pharmacy {@code <pharmacy id> / <method>}
     */
    public record Row(String id, String name, String classification, String skus, String pharmacy, String href) {
    }
}

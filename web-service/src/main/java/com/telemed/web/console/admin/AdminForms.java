package com.telemed.web.console.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.web.console.request.DecisionForms;
import com.telemed.web.page.Refusal;
import java.util.List;
import java.util.Map;

/**
 * The administration forms' refusals: the gateway's {@code 400} issues by the form field they are about
 * (as the decision forms read them, {@link DecisionForms#errors}), a text the API answers about one field
 * put next to it, anything else under {@code ""} (the form's own message).
 */
final class AdminForms {

    static final String NOT_DONE = "This could not be done. Reload the page and try again.";

    private AdminForms() {
    }

    /** {@code texts}: an error text of the API about one field ({@code "Prescriber not found"} -> {@code prescriberId}). */
    static Map<String, String> errors(Refusal refusal, List<String> fields, Map<String, String> texts) {
        List<JsonNode> issues = refusal.issues();
        if (!issues.isEmpty()) {
            return DecisionForms.errors(issues, fields);
        }
        String error = refusal.error() == null ? NOT_DONE : refusal.error();
        return Map.of(texts.getOrDefault(error, ""), error);
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}

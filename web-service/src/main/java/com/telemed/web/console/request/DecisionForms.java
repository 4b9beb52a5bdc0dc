package com.telemed.web.console.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MultivaluedMap;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The decision forms of a request's item as the gateway's {@code /ops} bodies (operations-api.md,
 * "Review"), and the gateway's {@code 400} issues back next to their fields. The checks are the API's
 * own: the page sends what was typed, numbers as JSON numbers when they are integers, anything else as
 * the text typed (so the API's validation answers it), and never a {@code prescriberId} (a prescriber in
 * person may leave it out: it is theirs).
 */
public final class DecisionForms {

    /** The approve form's fields in page order: name and label. */
    public static final Map<String, String> APPROVE_FIELDS = fields("skuId", "SKU", "quantity", "Quantity", "quantityUnits", "Quantity units",
            "daysSupply", "Days supply", "directions", "Directions", "refills", "Refills", "dispenseAsWritten", "Dispense as written");
    static final List<String> NUMBERS = List.of("quantity", "daysSupply", "refills");
    /** Left out of the body when empty: the API's optional fields. */
    static final List<String> OPTIONAL = List.of("skuId", "quantityUnits");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,30}");

    private DecisionForms() {
    }

    /** {@code {"prescription": {...}}} from the approve form. */
    public static ObjectNode approval(MultivaluedMap<String, String> form) {
        ObjectNode prescription = JsonNodeFactory.instance.objectNode();
        for (String field : APPROVE_FIELDS.keySet()) {
            if (field.equals("dispenseAsWritten")) {
                prescription.put(field, form.getFirst(field) != null);
                continue;
            }
            String value = value(form, field);
            if (value.isEmpty() && OPTIONAL.contains(field)) {
                continue;
            }
            String typed = NUMBERS.contains(field) ? value.strip() : value;
            if (NUMBERS.contains(field) && INTEGER.matcher(typed).matches()) {
                prescription.put(field, new BigInteger(typed));
            } else {
                prescription.put(field, typed);
            }
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("prescription", prescription);
        return body;
    }

    /** {@code {"reason": "..."}}, or {@code {}} without one (the API's reason is optional). */
    public static ObjectNode denial(MultivaluedMap<String, String> form) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        String reason = value(form, "reason").strip();
        if (!reason.isEmpty()) {
            body.put("reason", reason);
        }
        return body;
    }

    /**
     * Each issue's message by the form field it is about ({@code ["prescription", "quantity"]} is
     * {@code quantity}, {@code ["reason"]} is {@code reason}), the first one per field; an issue about no
     * field of the form is kept under {@code ""}, for the form's own message.
     */
    public static Map<String, String> errors(List<JsonNode> issues, List<String> fields) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (JsonNode issue : issues) {
            JsonNode path = issue.path("path");
            String field = "";
            if (path.isArray() && path.size() >= 1) {
                String first = path.get(0).asText();
                String second = path.size() >= 2 ? path.get(1).asText() : null;
                if (first.equals("prescription") && second != null && fields.contains(second)) {
                    field = second;
                } else if (fields.contains(first)) {
                    field = first;
                }
            }
            String message = issue.path("message").asText("");
            errors.putIfAbsent(field, message.isEmpty() ? "Check this value" : message);
        }
        return errors;
    }

    static String value(MultivaluedMap<String, String> form, String field) {
        String value = form == null ? null : form.getFirst(field);
        return value == null ? "" : value;
    }

    private static Map<String, String> fields(String... pairs) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(fields);
    }
}

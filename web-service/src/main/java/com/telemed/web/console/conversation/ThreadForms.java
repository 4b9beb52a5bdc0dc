package com.telemed.web.console.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A thread's forms as the gateway's {@code /ops} bodies (operations-api.md, "Prescriber messaging") and the
 * gateway's issues back next to their fields. The checks are the API's own: the page sends what was typed.
 */
public final class ThreadForms {

    /** The hand-off categories of the partner contract ({@code message.handoff}), value and label, in page order. */
    public static final Map<String, String> CATEGORIES = categories();

    private ThreadForms() {
    }

    /** {@code {"text": "..."}}, as typed. */
    public static ObjectNode reply(String text) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("text", text == null ? "" : text);
        return body;
    }

    /** {@code {"category": "...", "note": "..."}}, the note left out when empty (it is optional). */
    public static ObjectNode handOff(String category, String note) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("category", category == null ? "" : category);
        String typed = note == null ? "" : note.strip();
        if (!typed.isEmpty()) {
            body.put("note", typed);
        }
        return body;
    }

    /**
     * Each issue's message by the field it is about ({@code ["text"]} is {@code text}), the first per field;
     * an issue about no field of the form is kept under {@code ""}, for the form's own message.
     */
    public static Map<String, String> errors(List<JsonNode> issues, List<String> fields) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (JsonNode issue : issues) {
            JsonNode path = issue.path("path");
            String first = path.isArray() && !path.isEmpty() ? path.get(0).asText() : "";
            String message = issue.path("message").asText("");
            errors.putIfAbsent(fields.contains(first) ? first : "", message.isEmpty() ? "Check this value" : message);
        }
        return errors;
    }

    private static Map<String, String> categories() {
        Map<String, String> categories = new LinkedHashMap<>();
        categories.put("billing", "Billing");
        categories.put("orders", "Orders");
        categories.put("account", "Account");
        categories.put("technical", "Technical");
        categories.put("other", "Other");
        return java.util.Collections.unmodifiableMap(categories);
    }
}

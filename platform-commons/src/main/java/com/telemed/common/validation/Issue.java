package com.telemed.common.validation;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One validation issue shaped like a Zod 3 issue: {@code code}, the code's own fields,
 * {@code path} and {@code message}, in Zod's key order.
 */
public final class Issue {

    private final Map<String, Object> fields = new LinkedHashMap<>();

    Issue(String code, Map<String, Object> details, List<Object> path, String message) {
        fields.put("code", code);
        fields.putAll(details);
        fields.put("path", List.copyOf(path));
        fields.put("message", message);
    }

    @JsonAnyGetter
    public Map<String, Object> fields() {
        return fields;
    }

    public String code() {
        return (String) fields.get("code");
    }

    @SuppressWarnings("unchecked")
    public List<Object> path() {
        return (List<Object>) fields.get("path");
    }

    public String message() {
        return (String) fields.get("message");
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}

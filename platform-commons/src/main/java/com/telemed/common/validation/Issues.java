package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Collects the issues of one input; all of them are reported at once. */
public final class Issues {

    private final List<Issue> issues = new ArrayList<>();

    public void add(String code, Map<String, Object> details, List<Object> path, String message) {
        issues.add(new Issue(code, details, path, message));
    }

    public void invalidType(List<Object> path, String expected, String received) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("expected", expected);
        details.put("received", received);
        String message = "undefined".equals(received) ? "Required" : "Expected " + expected + ", received " + received;
        add("invalid_type", details, path, message);
    }

    /** A rule of the contract that no type expresses (Zod's refine). */
    public void custom(List<Object> path, String message) {
        add("custom", Map.of(), path, message);
    }

    public int count() {
        return issues.size();
    }

    /**
     * Whether an issue since {@code from} aborts its object in Zod 3 (a wrong type, an enum value
     * outside the options): an object's rules (superRefine) run on a "dirty" object, whose issues
     * are only failed checks of well-typed values (too short, invalid email, ...), never on an
     * aborted one.
     */
    public boolean abortedSince(int from) {
        return issues.subList(from, issues.size()).stream().anyMatch(issue -> ABORTING.contains(issue.code()));
    }

    private static final Set<String> ABORTING = Set.of("invalid_type", "invalid_enum_value", "invalid_literal",
            "invalid_date", "invalid_union");

    public boolean isEmpty() {
        return issues.isEmpty();
    }

    public List<Issue> list() {
        return List.copyOf(issues);
    }

    public void throwIfAny() {
        if (!issues.isEmpty()) {
            throw new ValidationException(issues);
        }
    }

    /**
     * Zod's name for the type of a JSON value, as an {@code invalid_type} issue's {@code received}:
     * {@code undefined} for a missing value ({@code null} or a missing node), else {@code string},
     * {@code number}, {@code boolean}, {@code null}, {@code array} or {@code object}. For a schema
     * of its own outside this package (a check no built-in schema expresses).
     */
    public static String typeOf(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "undefined";
        }
        return switch (node.getNodeType()) {
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case NULL -> "null";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> "unknown";
        };
    }

    /**
     * A new path: {@code path} followed by {@code keys} (field names and array indexes), for an
     * issue below the value at {@code path}, for example {@code append(path, "skus", 2, "id")}.
     * {@code path} itself is left as it is.
     */
    public static List<Object> append(List<Object> path, Object... keys) {
        List<Object> longer = new ArrayList<>(path.size() + keys.length);
        longer.addAll(path);
        Collections.addAll(longer, keys);
        return longer;
    }
}

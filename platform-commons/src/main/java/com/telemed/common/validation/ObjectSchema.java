package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zod's {@code z.object({...})}: fields checked in declaration order, unknown keys ignored (or, with
 * {@link #unknownKeys}, each a {@code custom} issue after the fields' issues, whatever they were), and
 * object-level rules (Zod's {@code superRefine}) run unless a field's issue aborted the object (a
 * wrong type or enum value; see {@link Issues#abortedSince}), so a rule's issue comes in the same
 * answer as, say, an invalid email.
 */
public final class ObjectSchema extends Schema<ObjectSchema> {

    /** A rule across fields, free to report issues at any path below the object. */
    @FunctionalInterface
    public interface Rule {
        void check(JsonNode object, List<Object> path, Issues issues);
    }

    private final Map<String, Schema<?>> fields = new LinkedHashMap<>();
    private final List<Rule> rules = new ArrayList<>();
    private String unknownKey;

    public ObjectSchema field(String name, Schema<?> schema) {
        fields.put(name, schema);
        return this;
    }

    /**
     * Keys no field names are refused: each a {@code custom} issue with {@code message} at its own path, in the
     * body's order, after the fields' issues and whatever they were (as Zod's {@code .strict()} reports its
     * {@code unrecognized_keys}), before the rules.
     */
    public ObjectSchema unknownKeys(String message) {
        unknownKey = message;
        return this;
    }

    public ObjectSchema rule(Rule rule) {
        rules.add(rule);
        return this;
    }

    @Override
    protected String expected() {
        return "object";
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (!value.isObject()) {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        int before = issues.count();
        fields.forEach((name, schema) -> schema.validate(value.get(name), Issues.append(path, name), issues));
        if (unknownKey != null) {
            value.fieldNames().forEachRemaining(name -> {
                if (!fields.containsKey(name)) {
                    issues.custom(Issues.append(path, name), unknownKey);
                }
            });
        }
        if (!issues.abortedSince(before)) {
            rules.forEach(rule -> rule.check(value, path, issues));
        }
        return true;
    }
}

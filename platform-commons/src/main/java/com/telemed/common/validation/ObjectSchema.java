package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zod's {@code z.object({...})}: fields checked in declaration order, unknown keys ignored, and
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

    public ObjectSchema field(String name, Schema<?> schema) {
        fields.put(name, schema);
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
        if (!issues.abortedSince(before)) {
            rules.forEach(rule -> rule.check(value, path, issues));
        }
        return true;
    }
}

package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A Zod-like schema for a JSON value. Missing and null are decided here; subclasses check a
 * present value of their type. Refinements run only on a value that passed its own checks.
 */
public abstract class Schema<S extends Schema<S>> {

    private boolean optional;
    private boolean nullable;
    private final List<Refinement> refinements = new ArrayList<>();

    private record Refinement(Predicate<JsonNode> test, String message) {
    }

    /** May be absent. */
    @SuppressWarnings("unchecked")
    public S optional() {
        optional = true;
        return (S) this;
    }

    /** May be {@code null}. */
    @SuppressWarnings("unchecked")
    public S nullable() {
        nullable = true;
        return (S) this;
    }

    /** A rule beyond the type, reported as a {@code custom} issue with this message. */
    @SuppressWarnings("unchecked")
    public S refine(Predicate<JsonNode> test, String message) {
        refinements.add(new Refinement(test, message));
        return (S) this;
    }

    /** Zod's expected type name, as in {@code Expected string, received number}. */
    protected abstract String expected();

    /** Checks a present, non-null value; returns false when it has the wrong type. */
    protected abstract boolean check(JsonNode value, List<Object> path, Issues issues);

    public final void validate(JsonNode value, List<Object> path, Issues issues) {
        if (value == null || value.isMissingNode()) {
            if (!optional) {
                issues.invalidType(path, expected(), "undefined");
            }
            return;
        }
        if (value.isNull()) {
            if (!nullable) {
                issues.invalidType(path, expected(), "null");
            }
            return;
        }
        int before = issues.count();
        if (check(value, path, issues) && issues.count() == before) {
            for (Refinement refinement : refinements) {
                if (!refinement.test().test(value)) {
                    issues.custom(path, refinement.message());
                }
            }
        }
    }

    /** Validates a whole input and throws every issue at once. */
    public final void validate(JsonNode value) {
        Issues issues = new Issues();
        validate(value, List.of(), issues);
        issues.throwIfAny();
    }
}

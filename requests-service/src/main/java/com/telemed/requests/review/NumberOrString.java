package com.telemed.requests.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.Schema;
import java.util.List;

/** A number or a non-empty string (a prescription's {@code quantity}: "number, string or null"). */
final class NumberOrString extends Schema<NumberOrString> {

    @Override
    protected String expected() {
        return "number";
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (value.isNumber() || (value.isTextual() && !value.textValue().isBlank())) {
            return true;
        }
        issues.invalidType(path, expected(), typeOf(value));
        return false;
    }

    /** Zod's name of a JSON value's type (Issues keeps its own package-private). */
    private static String typeOf(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        return value.isArray() ? "array" : "object";
    }
}

package com.telemed.requests.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.Schema;
import com.telemed.common.validation.Schemas;
import com.telemed.common.validation.StringSchema;
import java.util.List;

/** A number or a non-empty string (a prescription's {@code quantity}: "number, string or null"). */
final class NumberOrString extends Schema<NumberOrString> {

    private final NumberSchema number;
    private final StringSchema text;

    /** A number checked by {@code number}, or a non-blank string of at most {@code maxLength} characters. */
    NumberOrString(NumberSchema number, int maxLength) {
        this.number = number;
        this.text = Schemas.string().max(maxLength);
    }

    @Override
    protected String expected() {
        return "number";
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (value.isNumber()) {
            number.validate(value, path, issues);
            return true;
        }
        if (value.isTextual() && !value.textValue().isBlank()) {
            text.validate(value, path, issues);
            return true;
        }
        issues.invalidType(path, expected(), Issues.typeOf(value));
        return false;
    }
}

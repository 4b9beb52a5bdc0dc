package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Zod's {@code z.boolean()}. */
public final class BooleanSchema extends Schema<BooleanSchema> {

    @Override
    protected String expected() {
        return "boolean";
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (!value.isBoolean()) {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        return true;
    }
}

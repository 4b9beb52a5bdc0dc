package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Zod's {@code z.enum([...])}. */
public final class EnumSchema extends Schema<EnumSchema> {

    private final List<String> options;

    EnumSchema(List<String> options) {
        this.options = List.copyOf(options);
    }

    @Override
    protected String expected() {
        return quoted();
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (!value.isTextual()) {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        if (!options.contains(value.textValue())) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("received", value.textValue());
            details.put("options", options);
            issues.add("invalid_enum_value", details, path,
                    "Invalid enum value. Expected " + quoted() + ", received '" + value.textValue() + "'");
        }
        return true;
    }

    private String quoted() {
        return options.stream().map(option -> "'" + option + "'").collect(Collectors.joining(" | "));
    }
}

package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Zod's {@code z.array(item)}; item issues carry their index in the path. */
public final class ArraySchema extends Schema<ArraySchema> {

    private final Schema<?> item;
    private Integer minimum;
    private Integer maximum;

    ArraySchema(Schema<?> item) {
        this.item = item;
    }

    public ArraySchema min(int count) {
        minimum = count;
        return this;
    }

    public ArraySchema max(int count) {
        maximum = count;
        return this;
    }

    @Override
    protected String expected() {
        return "array";
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (!value.isArray()) {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        for (int i = 0; i < value.size(); i++) {
            item.validate(value.get(i), Issues.append(path, i), issues);
        }
        if (minimum != null && value.size() < minimum) {
            issues.add("too_small", size("minimum", minimum), path,
                    "Array must contain at least " + minimum + " element(s)");
        }
        if (maximum != null && value.size() > maximum) {
            issues.add("too_big", size("maximum", maximum), path,
                    "Array must contain at most " + maximum + " element(s)");
        }
        return true;
    }

    private static Map<String, Object> size(String bound, int count) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(bound, count);
        details.put("type", "array");
        details.put("inclusive", true);
        details.put("exact", false);
        return details;
    }
}

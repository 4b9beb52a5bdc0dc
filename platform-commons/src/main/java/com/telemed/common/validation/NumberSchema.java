package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zod's {@code z.number()}; with {@link #coerce()} it is {@code z.coerce.number()}, which reads
 * query strings ({@code "abc"} is {@code received: "nan"}).
 */
public final class NumberSchema extends Schema<NumberSchema> {

    private boolean coerce;
    private boolean integer;
    private BigDecimal minimum;
    private BigDecimal maximum;

    @Override
    protected String expected() {
        return "number";
    }

    public NumberSchema coerce() {
        coerce = true;
        return this;
    }

    public NumberSchema integer() {
        integer = true;
        return this;
    }

    public NumberSchema min(int value) {
        minimum = BigDecimal.valueOf(value);
        return this;
    }

    public NumberSchema max(int value) {
        maximum = BigDecimal.valueOf(value);
        return this;
    }

    /** The number a valid value stands for (a coerced query string included). */
    public static BigDecimal read(JsonNode value) {
        if (value.isNumber()) {
            return value.decimalValue();
        }
        String text = value.asText().trim();
        // JavaScript's Number(""): 0.
        return text.isEmpty() ? BigDecimal.ZERO : new BigDecimal(text);
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        BigDecimal number;
        if (value.isNumber()) {
            number = value.decimalValue();
        } else if (coerce && (value.isTextual() || value.isBoolean())) {
            try {
                number = value.isBoolean() ? (value.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO) : read(value);
            } catch (NumberFormatException e) {
                issues.invalidType(path, "number", "nan");
                return false;
            }
        } else {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        if (integer && number.stripTrailingZeros().scale() > 0) {
            issues.invalidType(path, "integer", "float");
        }
        if (minimum != null && number.compareTo(minimum) < 0) {
            issues.add("too_small", bound("minimum", minimum), path,
                    "Number must be greater than or equal to " + minimum.toPlainString());
        }
        if (maximum != null && number.compareTo(maximum) > 0) {
            issues.add("too_big", bound("maximum", maximum), path,
                    "Number must be less than or equal to " + maximum.toPlainString());
        }
        return true;
    }

    private static Map<String, Object> bound(String name, BigDecimal value) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(name, value.intValueExact());
        details.put("type", "number");
        details.put("inclusive", true);
        details.put("exact", false);
        return details;
    }
}

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
    private Integer decimals;

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

    /**
     * At most {@code places} digits after the decimal point: Zod's {@code multipleOf(10^-places)}
     * ({@code not_multiple_of}, {@code Number must be a multiple of 0.01}). Decided on the digits
     * themselves, so a value such as {@code 1e-2147483647} costs nothing to refuse, and a valid
     * value never carries a scale that makes later arithmetic or storage explode.
     */
    public NumberSchema decimals(int places) {
        decimals = places;
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
        if (decimals != null && number.signum() != 0 && number.stripTrailingZeros().scale() > decimals) {
            BigDecimal step = BigDecimal.ONE.movePointLeft(decimals);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("multipleOf", step);
            issues.add("not_multiple_of", details, path, "Number must be a multiple of " + step.toPlainString());
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

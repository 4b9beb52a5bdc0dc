package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Zod's {@code z.string()} with the checks the contracts use; every failing check is reported. */
public final class StringSchema extends Schema<StringSchema> {

    // Zod 3's email pattern.
    private static final Pattern EMAIL = Pattern.compile(
            "^(?!\\.)(?!.*\\.\\.)([A-Z0-9_'+\\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9\\-]*\\.)+[A-Z]{2,}$",
            Pattern.CASE_INSENSITIVE);

    private interface Check {
        void run(String value, List<Object> path, Issues issues);
    }

    private final List<Check> checks = new ArrayList<>();

    @Override
    protected String expected() {
        return "string";
    }

    public StringSchema min(int length) {
        checks.add((value, path, issues) -> {
            if (value.length() < length) {
                issues.add("too_small", size("minimum", length, false), path,
                        "String must contain at least " + length + " character(s)");
            }
        });
        return this;
    }

    public StringSchema max(int length) {
        checks.add((value, path, issues) -> {
            if (value.length() > length) {
                issues.add("too_big", size("maximum", length, false), path,
                        "String must contain at most " + length + " character(s)");
            }
        });
        return this;
    }

    public StringSchema length(int length) {
        checks.add((value, path, issues) -> {
            String message = "String must contain exactly " + length + " character(s)";
            if (value.length() < length) {
                issues.add("too_small", size("minimum", length, true), path, message);
            } else if (value.length() > length) {
                issues.add("too_big", size("maximum", length, true), path, message);
            }
        });
        return this;
    }

    public StringSchema email() {
        checks.add((value, path, issues) -> {
            if (!EMAIL.matcher(value).matches()) {
                issues.add("invalid_string", Map.of("validation", "email"), path, "Invalid email");
            }
        });
        return this;
    }

    /**
     * A name, which ends up in a mail's header (a prescriber mail's {@code Subject}) and on one line
     * of a page: no control character (U+0000 to U+001F, U+007F to U+009F: a line feed would start a
     * header of its own) and no line or paragraph separator (U+2028, U+2029). One {@code custom}
     * issue {@code Invalid character}, as for text PostgreSQL cannot store ({@link StorableText}).
     */
    public StringSchema singleLine() {
        checks.add((value, path, issues) -> {
            if (!singleLine(value)) {
                issues.custom(path, StorableText.INVALID_CHARACTER);
            }
        });
        return this;
    }

    /** Whether {@code value} holds no character that {@link #breaksLine}. */
    public static boolean singleLine(String value) {
        return value.chars().noneMatch(StringSchema::breaksLine);
    }

    /** A control character (U+0000 to U+001F, U+007F to U+009F) or a line or paragraph separator. */
    public static boolean breaksLine(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }

    /** Zod's {@code regex} check; its default message is {@code Invalid}. */
    public StringSchema regex(Pattern pattern, String message) {
        checks.add((value, path, issues) -> {
            if (!pattern.matcher(value).matches()) {
                issues.add("invalid_string", Map.of("validation", "regex"), path, message);
            }
        });
        return this;
    }

    /**
     * Zod's {@code datetime({ offset: true })}: ISO 8601 with {@code Z} or an offset, and, as in
     * Zod's pattern, a four-digit year. Java alone would also read {@code +999999999-12-31T23:59:59Z},
     * which no timestamp column holds.
     */
    public StringSchema datetimeWithOffset() {
        checks.add((value, path, issues) -> {
            if (!FOUR_DIGIT_YEAR.matcher(value).lookingAt()) {
                issues.add("invalid_string", Map.of("validation", "datetime"), path, "Invalid datetime");
                return;
            }
            try {
                OffsetDateTime.parse(value);
            } catch (DateTimeParseException e) {
                issues.add("invalid_string", Map.of("validation", "datetime"), path, "Invalid datetime");
            }
        });
        return this;
    }

    /** The start of a date Zod and PostgreSQL both read: years 0000 to 9999, no sign. */
    public static final Pattern FOUR_DIGIT_YEAR = Pattern.compile("\\d{4}-");

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (!value.isTextual()) {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        for (Check check : checks) {
            check.run(value.textValue(), path, issues);
        }
        return true;
    }

    private static Map<String, Object> size(String bound, int length, boolean exact) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(bound, length);
        details.put("type", "string");
        details.put("inclusive", true);
        details.put("exact", exact);
        return details;
    }
}

package com.telemed.common.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * A setting a deployment must get right before a service may start in production (see
 * {@link ProductionSettings}). platform-commons holds the settings every service shares (its
 * datasource, the platform trust key); a service declares its own as CDI beans of this type, next
 * to the code that reads them (for example a producer method returning
 * {@link #secret(String, String, String...)}), and the check finds them all.
 */
public interface ProductionRequirement {

    /**
     * What is wrong with the configuration for production: one entry per setting at fault, each
     * naming the setting (and the environment variable operators set); empty when it may start.
     * An entry never quotes a secret's value.
     */
    List<String> refusals(Config config);

    /** A secret: refused when not set, or set to one of the values committed for development. */
    static ProductionRequirement secret(String property, String variable, String... developmentValues) {
        Set<String> development = Set.copyOf(Arrays.asList(developmentValues));
        return config -> {
            Optional<String> value = value(config, property);
            if (value.isEmpty()) {
                return List.of(name(property, variable) + " is not set");
            }
            if (development.contains(value.get())) {
                return List.of(name(property, variable) + " is the development value");
            }
            return List.of();
        };
    }

    /** A setting without a safe default (not a secret): refused when not set. */
    static ProductionRequirement required(String property, String variable) {
        return config -> value(config, property).isEmpty()
                ? List.of(name(property, variable) + " is not set")
                : List.of();
    }

    /**
     * A choice: refused unless exactly one of {@code allowed} (case and spaces count: a misspelt
     * value must not quietly select the other behaviour). The value is quoted: it is no secret.
     */
    static ProductionRequirement oneOf(String property, String variable, String... allowed) {
        List<String> choices = List.of(allowed);
        String expected = choices.stream().collect(Collectors.joining(" or "));
        return config -> {
            Optional<String> value = config.getOptionalValue(property, String.class);
            if (value.isEmpty()) {
                return List.of(name(property, variable) + " is not set (" + expected + ")");
            }
            if (!choices.contains(value.get())) {
                return List.of(name(property, variable) + " is " + quote(value.get()) + ", not " + expected);
            }
            return List.of();
        };
    }

    /** {@code property (VARIABLE)}: how an operator finds the setting. */
    static String name(String property, String variable) {
        return variable == null ? property : property + " (" + variable + ")";
    }

    /** The value as set, without leading or trailing spaces (a secret of spaces is no secret); empty when not set. */
    static Optional<String> value(Config config, String property) {
        return config.getOptionalValue(property, String.class).map(String::strip).filter(text -> !text.isEmpty());
    }

    /** A non-secret value for the one-line message: quoted, control characters escaped, at most 40 characters. */
    static String quote(String value) {
        StringBuilder text = new StringBuilder("\"");
        value.codePoints().limit(40).forEach(c -> {
            if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
                text.append(String.format("\\u%04x", c));
            } else {
                text.appendCodePoint(c);
            }
        });
        return text.append(value.codePointCount(0, value.length()) > 40 ? "...\"" : "\"").toString();
    }
}

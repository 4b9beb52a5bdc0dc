package com.telemed.testkit.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The samples of one scrape in the Prometheus text format (0.0.4, what {@code /q/metrics} serves):
 * {@code name{label="value",...} value [timestamp]}, comments skipped. Enough for tests and
 * {@code ./stack metrics}; no exemplars, no OpenMetrics extras.
 */
public final class PrometheusText {

    /** One sample: its metric name, its labels in order, its value. */
    public record Sample(String name, Map<String, String> labels, double value) {

        public String label(String key) {
            return labels.get(key);
        }
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = Collections.unmodifiableList(samples);
    }

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        int number = 0;
        for (String line : text.split("\n")) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            try {
                samples.add(sample(trimmed));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("line " + number + " is not a Prometheus sample: " + trimmed, e);
            }
        }
        return new PrometheusText(samples);
    }

    public List<Sample> samples() {
        return samples;
    }

    /** Every sample of {@code name}. */
    public List<Sample> named(String name) {
        return samples.stream().filter(sample -> sample.name().equals(name)).toList();
    }

    /** Every sample of {@code name} whose labels include all of {@code labels}. */
    public List<Sample> find(String name, Map<String, String> labels) {
        return named(name).stream().filter(sample -> sample.labels().entrySet().containsAll(labels.entrySet())).toList();
    }

    /** The sum of the samples of {@code name} that {@code which} accepts; empty when there is none. */
    public Optional<Double> sum(String name, Predicate<Sample> which) {
        List<Sample> found = named(name).stream().filter(which).toList();
        return found.isEmpty() ? Optional.empty() : Optional.of(found.stream().mapToDouble(Sample::value).sum());
    }

    /** The largest sample of {@code name} (NaN ignored); empty when there is none. */
    public Optional<Double> max(String name) {
        return named(name).stream().map(Sample::value).filter(value -> !value.isNaN()).max(Double::compare);
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        String name;
        Map<String, String> labels = new LinkedHashMap<>();
        int rest;
        if (brace >= 0 && (space < 0 || brace < space)) {
            name = line.substring(0, brace);
            rest = labels(line, brace + 1, labels);
        } else {
            name = line.substring(0, space);
            rest = space;
        }
        String[] fields = line.substring(rest).strip().split("\\s+");
        return new Sample(name, Collections.unmodifiableMap(labels), value(fields[0]));
    }

    /** Reads {@code key="value",...}} from {@code at}; returns the index after the closing brace. */
    private static int labels(String line, int at, Map<String, String> labels) {
        int i = at;
        while (true) {
            while (line.charAt(i) == ',' || line.charAt(i) == ' ') {
                i++;
            }
            if (line.charAt(i) == '}') {
                return i + 1;
            }
            int equals = line.indexOf('=', i);
            String key = line.substring(i, equals).strip();
            i = equals + 1;
            if (line.charAt(i) != '"') {
                throw new IllegalArgumentException("label " + key + " has no quoted value");
            }
            i++;
            StringBuilder value = new StringBuilder();
            while (line.charAt(i) != '"') {
                char c = line.charAt(i);
                if (c == '\\') {
                    char escaped = line.charAt(++i);
                    value.append(escaped == 'n' ? '\n' : escaped);
                } else {
                    value.append(c);
                }
                i++;
            }
            labels.put(key, value.toString());
            i++;
        }
    }

    private static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}

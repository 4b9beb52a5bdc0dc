package com.telemed.testkit.logscan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Scans log files for recorded values: case-insensitively, and only where the value stands on its
 * own (no letter, digit, {@code -} or {@code _} just before or after it), so that a name {@code Grace}
 * is found in {@code member Grace Hopper} but not in {@code graceful} or {@code grace-period}. Every value has four characters or more:
 * candidates are found by their first four, lower-cased, then compared whole.
 *
 * <p>A line that is a JSON object (the services' production log format, quarkus-logging-json) is
 * scanned by its string values, decoded: a value that JSON escapes ({@code "}, {@code \}, a control
 * character, or non-ASCII where the writer escapes it) is found in the message as the service wrote
 * it. The fields that name code (the logger, thread, process, an exception's frames) are not data and
 * are left out. Any other line is scanned as written.
 */
public final class LogScan {

    /** One value found: where, and what kind of value it was. */
    public record Hit(Path file, long line, SensitiveValues.Kind kind, String value) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + kind.label() + " " + value;
        }
    }

    /** What a scan read and found: lines scanned per file, and the hits. */
    public record Result(Map<Path, Long> linesPerFile, List<Hit> hits) {
    }

    private record Candidate(String lower, String value, SensitiveValues.Kind kind) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, List<Candidate>> byPrefix = new HashMap<>();
    private final Function<Path, Long> starts;

    /** Scans whole files. */
    public LogScan(Map<String, SensitiveValues.Kind> values) {
        this(values, file -> 0L);
    }

    /** Scans each file from the byte offset {@code starts} gives (where this run's part of a log begins: {@link LogStarts#start}). */
    public LogScan(Map<String, SensitiveValues.Kind> values, Function<Path, Long> starts) {
        this.starts = starts;
        values.forEach((value, kind) -> {
            String lower = value.toLowerCase(Locale.ROOT);
            // Lower-casing may change the length (rarely): such a value is looked for as it lower-cases.
            if (lower.length() >= 4) {
                byPrefix.computeIfAbsent(lower.substring(0, 4), prefix -> new ArrayList<>()).add(new Candidate(lower, value, kind));
            }
        });
        // Hits come in the order they start in a line; at one place, the longest value first.
        byPrefix.values().forEach(candidates -> candidates.sort(
                Comparator.comparingInt((Candidate candidate) -> -candidate.lower().length()).thenComparing(Candidate::lower)));
    }

    /** Every regular file under the directories (each one that exists), in path order. */
    public Result scan(List<Path> directories) {
        Map<Path, Long> lines = new TreeMap<>();
        List<Hit> hits = new ArrayList<>();
        for (Path directory : directories) {
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    lines.put(file, scanFile(file, hits));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new Result(lines, hits);
    }

    /** The lines of the file from where {@code starts} says this run's part begins: scanned, and counted. */
    private long scanFile(Path file, List<Hit> hits) throws IOException {
        long start = starts.apply(file);
        long number = 0;
        long scanned = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            if (start > 0 && start <= Files.size(file)) {
                // Lines before this run's part still count for the line numbers of the hits.
                for (long skipped = 0; skipped < start; skipped++) {
                    if (in.read() == '\n') {
                        number++;
                    }
                }
            }
            // A log may hold any byte a process wrote: read what is not UTF-8 as replacement characters.
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                scanned++;
                List<String> strings = jsonStrings(line);
                List<Candidate> found = strings == null ? find(line) : new ArrayList<>();
                for (String decoded : strings == null ? List.<String>of() : strings) {
                    find(decoded).stream().filter(candidate -> !found.contains(candidate)).forEach(found::add);
                }
                for (Candidate candidate : found) {
                    hits.add(new Hit(file, number, candidate.kind(), candidate.value()));
                }
            }
        }
        return scanned;
    }

    /**
     * Fields of a JSON log line that name code or the process, never data: a logger
     * ({@code com.telemed.common.trust.ServiceProofCheck} holds {@code trust}, a word a name may be),
     * a thread, the host, the process, an exception's type and its frames' classes and methods.
     */
    private static final Set<String> CODE_FIELDS = Set.of("loggerName", "loggerClassName", "threadName", "hostName",
            "processName", "exceptionType", "class", "method", "level", "timestamp");

    /**
     * The string values of a line that is a JSON object, decoded, but those of {@link #CODE_FIELDS};
     * null for any other line (scanned as written).
     */
    static List<String> jsonStrings(String line) {
        String text = line.strip();
        if (!text.startsWith("{") || !text.endsWith("}")) {
            return null;
        }
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (IOException notJson) {
            return null;
        }
        List<String> strings = new ArrayList<>();
        collect(node, strings);
        return strings;
    }

    private static void collect(JsonNode node, List<String> strings) {
        if (node.isTextual()) {
            strings.add(node.asText());
        } else if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (!CODE_FIELDS.contains(field.getKey())) {
                    collect(field.getValue(), strings);
                }
            });
        } else {
            node.forEach(child -> collect(child, strings));
        }
    }

    /** The recorded values that stand on their own in the line, each once. */
    private List<Candidate> find(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        List<Candidate> found = new ArrayList<>();
        for (int at = 0; at + 4 <= lower.length(); at++) {
            List<Candidate> candidates = byPrefix.get(lower.substring(at, at + 4));
            if (candidates == null) {
                continue;
            }
            for (Candidate candidate : candidates) {
                int end = at + candidate.lower().length();
                if (lower.startsWith(candidate.lower(), at) && !wordCharacter(lower, at - 1) && !wordCharacter(lower, end)
                        && !found.contains(candidate)) {
                    found.add(candidate);
                }
            }
        }
        return found;
    }

    /**
     * A letter, a digit, or a joiner of identifiers ({@code -}, {@code _}): a value inside a name
     * such as {@code rest-client-jackson}, {@code request-consultation} or {@code metrics-e2e-1f2e}
     * is part of a word of the code, not the value standing on its own.
     */
    private static boolean wordCharacter(String text, int at) {
        if (at < 0 || at >= text.length()) {
            return false;
        }
        char c = text.charAt(at);
        return Character.isLetterOrDigit(c) || c == '-' || c == '_';
    }
}

package com.telemed.bench.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The root README's performance table, made from the committed {@code bench/results/*.json} ({@link Results}):
 * a row per headline figure and per ratio to a ceiling, bench by bench (by name), with the figure's aim and whether
 * the run met it ({@link Results#aim}), then a row per bench of where and when it was measured (lines a reader can
 * scan, none over 200 characters). The README holds it between {@link #START} and {@link #END}; ResultsTableTest fails when
 * the two differ, so the README cannot drift from the files.
 *
 * <p>Run: bench/results-table.sh (prints it), bench/results-table.sh --update-readme (writes it into README.md).
 */
public final class ResultsTable {

    public static final String START = "<!-- bench-results:start -->";
    public static final String END = "<!-- bench-results:end -->";
    static final String HEADER = """
            | Bench | Figure | Value | Aim |
            |---|---|---|---|
            """;
    static final String RUNS = """

            | Bench | Cores | Load, 1 min (start → end) | Commit | Measured (UTC) |
            |---|---|---|---|---|
            """;
    static final String NO_FIGURES = "| no figures yet | | | |\n";

    private ResultsTable() {
    }

    public static void main(String[] args) throws IOException {
        Path root = BenchPlatform.root();
        String table = render(root.resolve("bench/results"));
        if (args.length > 0 && args[0].equals("--update-readme")) {
            Path readme = root.resolve("README.md");
            Files.writeString(readme, withTable(Files.readString(readme, StandardCharsets.UTF_8), table), StandardCharsets.UTF_8);
            System.out.println("README.md: the table between " + START + " and " + END + " is now:");
        }
        System.out.print(table);
    }

    /** The table of every {@code *.json} in {@code directory} (none, or no directory: "no figures yet"). */
    public static String render(Path directory) throws IOException {
        List<JsonNode> results = new ArrayList<>();
        if (Files.isDirectory(directory)) {
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json"))
                        .filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList()) {
                    results.add(Results.JSON.readTree(file.toFile()));
                }
            }
        }
        return render(results);
    }

    static String render(List<JsonNode> results) {
        StringBuilder out = new StringBuilder(HEADER);
        if (results.isEmpty()) {
            return out.append(NO_FIGURES).toString();
        }
        StringBuilder runs = new StringBuilder(RUNS);
        for (JsonNode result : results) {
            String bench = "`" + result.path("bench").asText() + "`";
            boolean any = false;
            // The headline figures first, then the ratios to the ceiling, each in the order the bench printed them.
            for (Results.Role shown : List.of(Results.Role.HEADLINE, Results.Role.CEILING_RATIO)) {
                for (JsonNode figure : result.path("figures")) {
                    if (Results.Role.of(figure.path("role").asText()) != shown) {
                        continue;
                    }
                    any = true;
                    String label = figure.path("label").asText() + (shown == Results.Role.CEILING_RATIO ? " (ratio to its ceiling)" : "");
                    out.append("| ").append(bench).append(" | ").append(cell(label)).append(" | ")
                            .append(number(figure.path("value"))).append(" ").append(figure.path("unit").asText()).append(" | ")
                            .append(aim(figure)).append(" |\n");
                }
            }
            if (!any) {
                out.append("| ").append(bench).append(" | - | - | - |\n");
            }
            JsonNode machine = result.path("machine");
            JsonNode load = machine.path("loadAverage1m");
            JsonNode commit = result.path("commit");
            String sha = commit.path("sha").isTextual() ? commit.path("sha").asText() : "";
            String measuredAt = result.path("measuredAt").asText();
            runs.append("| ").append(bench).append(" | ")
                    .append(machine.path("cores").asText()).append(" | ")
                    .append(number(load.path("start"))).append(" → ").append(number(load.path("end"))).append(" | ")
                    .append(sha.isEmpty() ? "unknown" : "`" + sha.substring(0, Math.min(7, sha.length())) + "`")
                    .append(commit.path("dirty").asBoolean(false) ? " (uncommitted changes)" : "").append(" | ")
                    // 2026-11-27T03:12:45Z -> 2026-11-27 03:12
                    .append(measuredAt.length() >= 16 ? measuredAt.substring(0, 10) + " " + measuredAt.substring(11, 16) : measuredAt)
                    .append(" |\n");
        }
        return out.append(runs).toString();
    }

    private static String aim(JsonNode figure) {
        if (!figure.path("aim").isTextual()) {
            return "-";
        }
        return cell(figure.path("aim").asText()) + (figure.path("aimMet").asBoolean(false) ? ": **met**" : ": **missed**");
    }

    /** The table between the markers of {@code readme}, markers excluded, or an exception when they are missing. */
    public static String tableIn(String readme) {
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("README.md has no " + START + " ... " + END);
        }
        return readme.substring(start + START.length(), end).strip() + "\n";
    }

    /** {@code readme} with {@code table} between its markers. */
    public static String withTable(String readme, String table) {
        tableIn(readme);
        return readme.substring(0, readme.indexOf(START) + START.length()) + "\n" + table
                + readme.substring(readme.indexOf(END));
    }

    private static String number(JsonNode value) {
        return value.isNumber() ? value.decimalValue().toPlainString() : "?";
    }

    private static String cell(String text) {
        return text.isEmpty() ? "-" : text.replace("|", "\\|");
    }
}

package com.telemed.bench.support;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.regex.Pattern;

/**
 * A benchmark's figures, kept: each bench opens one with its name (its script's, {@code bench/<name>.sh}),
 * records its figures as it prints them, and at the end writes {@code bench/results/<name>.json}: when and
 * on what it was measured (the commit, the machine's cores and load at the start and at the end), its
 * arguments, and the figures in the order recorded. Those files are committed from a quiet machine only,
 * so that a regression shows up in a diff; the root README's performance table is made from them
 * ({@link ResultsTable}).
 *
 * <p>A figure's key is stable across runs (what a diff lines up on): dot-separated words, e.g.
 * {@code post.gateway.perSecond}. Its {@link Role} says whether the README's table shows it: one or two
 * headline figures per bench, and the ratio to the bench's ceiling where it has one.
 */
public final class Results {

    /** Where a figure shows in the README's table. */
    public enum Role {
        /** Kept in the file only. */
        DETAIL("detail"),
        /** One of the bench's one or two figures in the table's headline column. */
        HEADLINE("headline"),
        /** The figure as a percentage of the bench's ceiling measured in the same run: the table's ratio column. */
        CEILING_RATIO("ceiling-ratio");

        private final String json;

        Role(String json) {
            this.json = json;
        }

        public String json() {
            return json;
        }

        public static Role of(String json) {
            for (Role role : values()) {
                if (role.json.equals(json)) {
                    return role;
                }
            }
            throw new IllegalArgumentException("no figure role " + json);
        }
    }

    /** One figure; {@code value} null when it could not be measured (a NaN or an infinity). */
    public record Figure(String key, BigDecimal value, String unit, String label, Role role) {
    }

    /** The commit measured: {@code git rev-parse HEAD}, and whether the work tree differed from it. Null fields: no git. */
    public record Commit(String sha, Boolean dirty) {
    }

    /** The machine, as far as it does not change during a run. */
    public record Host(int cores, String os, String java) {

        public static Host current() {
            return new Host(Machine.cores(), System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                    + System.getProperty("os.arch") + ")", Runtime.version() + " (" + System.getProperty("java.vm.name") + ")");
        }
    }

    /** A key: words of letters, digits or dashes, separated by dots. */
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]*(\\.[A-Za-z0-9][A-Za-z0-9-]*)*");
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN).enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final String bench;
    private final List<String> arguments;
    private final Path directory;
    private final Clock clock;
    private final DoubleSupplier loadAverage;
    private final Commit commit;
    private final Host host;
    private final Instant started;
    private final Double loadAtStart;
    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private final List<Figure> figures = new ArrayList<>();
    private final Set<String> keys = new LinkedHashSet<>();
    private final Map<String, Aim> aims = new LinkedHashMap<>();

    /** What a figure is aimed at (e.g. "under 20 ms") and whether this run met it. */
    public record Aim(String aim, boolean met) {
    }

    /**
     * @param directory   where {@code <bench>.json} is written
     * @param loadAverage the machine's 1-minute load average, NaN when unknown
     */
    public Results(String bench, List<String> arguments, Path directory, Clock clock, DoubleSupplier loadAverage,
                   Commit commit, Host host) {
        if (!KEY.matcher(bench).matches() || bench.contains(".")) {
            throw new IllegalArgumentException("a bench's name is its script's, without .sh: " + bench);
        }
        this.bench = bench;
        this.arguments = List.copyOf(arguments);
        this.directory = directory;
        this.clock = clock;
        this.loadAverage = loadAverage;
        this.commit = commit;
        this.host = host;
        this.started = clock.instant();
        this.loadAtStart = finite(loadAverage.getAsDouble());
    }

    /**
     * The results of the bench {@code bench} (its script's name without {@code .sh}, e.g. {@code requests}) run
     * with {@code args}, to be written to {@code bench/results/<bench>.json} under the project's root.
     */
    public static Results open(String bench, String[] args) {
        Path root = BenchPlatform.root();
        return new Results(bench, List.of(args), root.resolve("bench/results"), Clock.systemUTC(), Machine::loadAverage1m,
                commit(root), Host.current());
    }

    /** The bench's settings in effect (its arguments or their defaults), by name, in the order given. */
    public Results parameter(String name, Object value) {
        if (!KEY.matcher(name).matches()) {
            throw new IllegalArgumentException("not a parameter name: " + name);
        }
        parameters.put(name, value instanceof Duration d ? d.toSeconds() : value);
        return this;
    }

    /** A figure kept in the file only. */
    public void record(String key, double value, String unit, String label) {
        add(Role.DETAIL, key, value, unit, label);
    }

    /** One of the bench's one or two headline figures (the README's table shows them). */
    public void headline(String key, double value, String unit, String label) {
        add(Role.HEADLINE, key, value, unit, label);
    }

    /** The bench's figure as a percentage of its ceiling, measured in the same run (the README's ratio column). */
    public void ceilingRatio(String key, double percent, String label) {
        add(Role.CEILING_RATIO, key, percent, "%", label);
    }

    /**
     * The percentiles {@link Percentiles#of} prints, from samples in microseconds: {@code <prefix>.p50Ms},
     * {@code .p90Ms}, {@code .p99Ms} (with {@code p99Role}) and {@code .maxMs}. Nothing without samples.
     */
    public void latencies(String prefix, String label, List<Long> micros, Role p99Role) {
        if (micros.isEmpty()) {
            return;
        }
        record(prefix + ".p50Ms", Percentiles.percentile(micros, 50) / 1000.0, "ms", label + ", p50");
        record(prefix + ".p90Ms", Percentiles.percentile(micros, 90) / 1000.0, "ms", label + ", p90");
        add(p99Role, prefix + ".p99Ms", Percentiles.percentile(micros, 99) / 1000.0, "ms", label + ", p99");
        record(prefix + ".maxMs", Percentiles.percentile(micros, 100) / 1000.0, "ms", label + ", max");
    }

    /** A load round's throughput ({@code <prefix>.perSecond}, with {@code rateRole}), p50 and p99. */
    public void load(String prefix, String label, double perSecond, String rateUnit, double p50Ms, double p99Ms, Role rateRole) {
        add(rateRole, prefix + ".perSecond", perSecond, rateUnit, label);
        record(prefix + ".p50Ms", p50Ms, "ms", label + ", p50");
        record(prefix + ".p99Ms", p99Ms, "ms", label + ", p99");
    }

    public void add(Role role, String key, double value, String unit, String label) {
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("not a figure key (dot-separated words): " + key);
        }
        if (!keys.add(key)) {
            throw new IllegalArgumentException("figure " + key + " recorded twice");
        }
        figures.add(new Figure(key, rounded(value), unit, label, role));
    }

    /**
     * The aim of the figure {@code key}, recorded already ({@code aim} as a reader says it, e.g. "under 20 ms"), and
     * whether this run met it; the README's table shows both beside the figure.
     */
    public void aim(String key, String aim, boolean met) {
        if (!keys.contains(key)) {
            throw new IllegalArgumentException("no figure " + key + " to aim");
        }
        aims.put(key, new Aim(aim, met));
    }

    public Map<String, Aim> aims() {
        return Map.copyOf(aims);
    }

    public List<Figure> figures() {
        return List.copyOf(figures);
    }

    /** The file's content as it is now. */
    public String json() {
        Instant finished = clock.instant();
        ObjectNode root = JSON.createObjectNode();
        root.put("bench", bench);
        root.put("measuredAt", started.truncatedTo(ChronoUnit.SECONDS).toString());
        root.put("durationSeconds", Duration.between(started, finished).toSeconds());
        ObjectNode git = root.putObject("commit");
        git.put("sha", commit.sha());
        git.put("dirty", commit.dirty());
        ObjectNode machine = root.putObject("machine");
        machine.put("cores", host.cores());
        ObjectNode load = machine.putObject("loadAverage1m");
        load.put("start", loadAtStart == null ? null : rounded(loadAtStart));
        Double loadAtEnd = finite(loadAverage.getAsDouble());
        load.put("end", loadAtEnd == null ? null : rounded(loadAtEnd));
        machine.put("os", host.os());
        machine.put("java", host.java());
        ArrayNode args = root.putArray("arguments");
        arguments.forEach(args::add);
        root.set("parameters", JSON.valueToTree(parameters));
        ArrayNode list = root.putArray("figures");
        for (Figure figure : figures) {
            ObjectNode node = list.addObject();
            node.put("key", figure.key());
            node.put("value", figure.value());
            node.put("unit", figure.unit());
            node.put("label", figure.label());
            node.put("role", figure.role().json());
            Aim aim = aims.get(figure.key());
            if (aim != null) {
                node.put("aim", aim.aim());
                node.put("aimMet", aim.met());
            }
        }
        try {
            return JSON.writer(printer()).writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes {@code <bench>.json} whole or not at all (a temporary file beside it, then moved over it), and
     * says where; the bench calls it once its figures are all recorded.
     */
    public Path write() throws IOException {
        Files.createDirectories(directory);
        Path target = directory.resolve(bench + ".json");
        Path temporary = Files.createTempFile(directory, "." + bench + "-", ".json.tmp");
        try {
            Files.writeString(temporary, json(), StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
        System.out.printf("%n%d figures written to %s (commit it only when measured on a quiet machine)%n", figures.size(), target);
        return target;
    }

    /** Two-space indents, {@code "key": value}, one element a line: a figure's change is a line of a diff. */
    static DefaultPrettyPrinter printer() {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        return new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(indenter).withArrayIndenter(indenter);
    }

    /**
     * Four significant digits, the integer part never rounded, at most three decimals: 65314.23 is 65314,
     * 254.333 is 254.3, 0.12345 is 0.123. Null for NaN or an infinity (not measured).
     */
    static BigDecimal rounded(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return null;
        }
        BigDecimal exact = BigDecimal.valueOf(value);
        int integerDigits = exact.abs().compareTo(BigDecimal.ONE) < 0 ? 0 : exact.abs().toBigInteger().toString().length();
        int scale = Math.min(3, Math.max(0, 4 - integerDigits));
        BigDecimal rounded = exact.setScale(scale, RoundingMode.HALF_UP).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0) : rounded;
    }

    private static Double finite(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? null : value;
    }

    /** HEAD's commit and whether the work tree differs from it, bench/results/ aside (earlier runs' files). */
    static Commit commit(Path root) {
        String sha = git(root, "rev-parse", "HEAD");
        String status = git(root, "status", "--porcelain", "--", ".", ":(exclude)bench/results");
        return new Commit(sha, sha == null || status == null ? null : !status.isBlank());
    }

    private static String git(Path root, String... arguments) {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out;
            try (InputStream in = process.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}

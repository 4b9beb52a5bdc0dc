package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTest {

    static final Results.Host HOST = new Results.Host(2, "Linux 6.1.0 (amd64)", "21.0.5+11-LTS (OpenJDK 64-Bit Server VM)");
    static final Results.Commit COMMIT = new Results.Commit("c3784f7a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e", false);

    @TempDir
    Path dir;

    /** A clock that gives its instants in turn (the start, then each reading of the end). */
    static final class Ticks extends Clock {
        private final Deque<Instant> instants;

        Ticks(String... instants) {
            this.instants = new ArrayDeque<>(Stream.of(instants).map(Instant::parse).toList());
        }

        @Override
        public Instant instant() {
            return instants.size() > 1 ? instants.poll() : instants.peek();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    /** The load average at the start, then at the end. */
    static java.util.function.DoubleSupplier loads(double... values) {
        Deque<Double> left = new ArrayDeque<>();
        for (double value : values) {
            left.add(value);
        }
        return () -> left.size() > 1 ? left.poll() : left.peek();
    }

    static Results requests(Path dir) {
        Results results = new Results("requests", List.of("200", "50"), dir, new Ticks("2026-11-27T03:12:45.678Z",
                "2026-11-27T03:17:57.001Z"), loads(0.42, 1.875), COMMIT, HOST);
        results.parameter("listCalls", 200).parameter("roundSeconds", java.time.Duration.ofSeconds(10)).parameter("loadGenerator", "wrk");
        results.load("post.gateway", "POST /v1/requests through the gateway, 16 clients", 254.3333, "req/s", 61.04, 118.2,
                Results.Role.HEADLINE);
        results.record("post.ceiling.perSecond", 65314.234, "tx/s", "pgbench one-row INSERT, same server, 16 clients");
        results.ceilingRatio("post.ratioToCeiling", 100 * 254.3333 / 65314.234, "POST through the gateway / pgbench one-row INSERT");
        results.record("post.gatewayToDirect", Double.NaN, "%", "POST through the gateway / direct to requests-service");
        return results;
    }

    @Test
    void writesTheWholeFileAsJson() throws Exception {
        Path file = requests(dir).write();

        assertEquals(dir.resolve("requests.json"), file);
        assertEquals("""
                {
                  "bench": "requests",
                  "measuredAt": "2026-11-27T03:12:45Z",
                  "durationSeconds": 311,
                  "commit": {
                    "sha": "c3784f7a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e",
                    "dirty": false
                  },
                  "machine": {
                    "cores": 2,
                    "loadAverage1m": {
                      "start": 0.42,
                      "end": 1.875
                    },
                    "os": "Linux 6.1.0 (amd64)",
                    "java": "21.0.5+11-LTS (OpenJDK 64-Bit Server VM)"
                  },
                  "arguments": [
                    "200",
                    "50"
                  ],
                  "parameters": {
                    "listCalls": 200,
                    "roundSeconds": 10,
                    "loadGenerator": "wrk"
                  },
                  "figures": [
                    {
                      "key": "post.gateway.perSecond",
                      "value": 254.3,
                      "unit": "req/s",
                      "label": "POST /v1/requests through the gateway, 16 clients",
                      "role": "headline"
                    },
                    {
                      "key": "post.gateway.p50Ms",
                      "value": 61.04,
                      "unit": "ms",
                      "label": "POST /v1/requests through the gateway, 16 clients, p50",
                      "role": "detail"
                    },
                    {
                      "key": "post.gateway.p99Ms",
                      "value": 118.2,
                      "unit": "ms",
                      "label": "POST /v1/requests through the gateway, 16 clients, p99",
                      "role": "detail"
                    },
                    {
                      "key": "post.ceiling.perSecond",
                      "value": 65314,
                      "unit": "tx/s",
                      "label": "pgbench one-row INSERT, same server, 16 clients",
                      "role": "detail"
                    },
                    {
                      "key": "post.ratioToCeiling",
                      "value": 0.389,
                      "unit": "%",
                      "label": "POST through the gateway / pgbench one-row INSERT",
                      "role": "ceiling-ratio"
                    },
                    {
                      "key": "post.gatewayToDirect",
                      "value": null,
                      "unit": "%",
                      "label": "POST through the gateway / direct to requests-service",
                      "role": "detail"
                    }
                  ]
                }
                """, Files.readString(file));
    }

    @Test
    void replacesTheLastFileAndLeavesNothingElse() throws Exception {
        Files.writeString(dir.resolve("requests.json"), "{\"bench\": \"requests\", \"older\": true}\n");
        Results results = new Results("requests", List.of(), dir, new Ticks("2026-11-27T04:00:00Z"), loads(Double.NaN),
                new Results.Commit(null, null), HOST);

        results.write();

        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("requests.json")), files.toList());
        }
        String json = Files.readString(dir.resolve("requests.json"));
        assertEquals(true, json.contains("""
                  "commit": {
                    "sha": null,
                    "dirty": null
                  },
                """), json);
        assertEquals(true, json.contains("""
                    "loadAverage1m": {
                      "start": null,
                      "end": null
                    },
                """), json);
        assertEquals(true, json.endsWith("""
                  "arguments": [ ],
                  "parameters": { },
                  "figures": [ ]
                }
                """), json);
    }

    @Test
    void directoryIsCreated() throws Exception {
        Path nested = dir.resolve("bench/results");
        Results results = new Results("billing", List.of(), nested, new Ticks("2026-11-27T04:00:00Z"), loads(1), COMMIT, HOST);

        assertEquals(nested.resolve("billing.json"), results.write());
    }

    @Test
    void fourSignificantDigitsTheIntegerPartKept() {
        assertEquals("65314", Results.rounded(65314.234).toPlainString());
        assertEquals("254.3", Results.rounded(254.3333).toPlainString());
        assertEquals("12.35", Results.rounded(12.3456).toPlainString());
        assertEquals("0.123", Results.rounded(0.12345).toPlainString());
        assertEquals("-0.46", Results.rounded(-0.46).toPlainString());
        assertEquals("1000", Results.rounded(1000.0).toPlainString());
        assertEquals("0", Results.rounded(0.0001).toPlainString());
        assertNull(Results.rounded(Double.NaN));
        assertNull(Results.rounded(Double.POSITIVE_INFINITY));
    }

    @Test
    void aKeyIsRecordedOnceAndIsDotSeparatedWords() {
        Results results = requests(dir);

        assertEquals("figure post.gateway.perSecond recorded twice", assertThrows(IllegalArgumentException.class,
                () -> results.record("post.gateway.perSecond", 1, "req/s", "again")).getMessage());
        for (String key : List.of("", "post..gateway", ".post", "post.", "post gateway", "post/gateway")) {
            assertThrows(IllegalArgumentException.class, () -> results.record(key, 1, "req/s", "bad"), key);
        }
        results.record("list.search-4242.gateway.p95Ms", 1, "ms", "a dash is part of a word");
        assertEquals(7, results.figures().size());
    }

    @Test
    void aBenchIsNamedAsItsScript() {
        for (String name : List.of("requests.sh", "bench/requests", "")) {
            assertThrows(IllegalArgumentException.class, () -> new Results(name, List.of(), dir, new Ticks("2026-11-27T04:00:00Z"),
                    loads(1), COMMIT, HOST), name);
        }
    }

    @Test
    void latenciesAsPercentilesPrintsThem() {
        Results results = new Results("webhook-delivery", List.of(), dir, new Ticks("2026-11-27T04:00:00Z"), loads(1), COMMIT, HOST);

        results.latencies("latency.endToEnd", "approve -> received", List.of(1000L, 2000L, 3000L, 4000L, 150_000L),
                Results.Role.HEADLINE);
        results.latencies("latency.none", "no samples", List.of(), Results.Role.DETAIL);

        assertEquals(List.of(
                new Results.Figure("latency.endToEnd.p50Ms", Results.rounded(3), "ms", "approve -> received, p50", Results.Role.DETAIL),
                new Results.Figure("latency.endToEnd.p90Ms", Results.rounded(150), "ms", "approve -> received, p90", Results.Role.DETAIL),
                new Results.Figure("latency.endToEnd.p99Ms", Results.rounded(150), "ms", "approve -> received, p99", Results.Role.HEADLINE),
                new Results.Figure("latency.endToEnd.maxMs", Results.rounded(150), "ms", "approve -> received, max", Results.Role.DETAIL)),
                results.figures());
    }

    @Test
    void theCommitIsHeadsAndDirtyLeavesResultsAside(@TempDir Path repository) throws Exception {
        git(repository, "init", "-q");
        git(repository, "config", "user.email", "bench@example.com");
        git(repository, "config", "user.name", "bench");
        Files.writeString(repository.resolve("pom.xml"), "<project/>\n");
        git(repository, "add", "pom.xml");
        git(repository, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "first");
        String head = new String(new ProcessBuilder("git", "-C", repository.toString(), "rev-parse", "HEAD").start()
                .getInputStream().readAllBytes()).strip();

        assertEquals(new Results.Commit(head, false), Results.commit(repository));
        Files.createDirectories(repository.resolve("bench/results"));
        Files.writeString(repository.resolve("bench/results/requests.json"), "{}\n");
        assertEquals(new Results.Commit(head, false), Results.commit(repository));
        Files.writeString(repository.resolve("pom.xml"), "<project></project>\n");
        assertEquals(new Results.Commit(head, true), Results.commit(repository));
        assertEquals(new Results.Commit(null, null), Results.commit(dir));
    }

    @Test
    void aQueryIsAKeyWord() {
        assertEquals("all", PageTimer.keyOf(""));
        assertEquals("status-pending", PageTimer.keyOf("?status=pending"));
        assertEquals("search-mail-test", PageTimer.keyOf("search=mail.test"));
        assertEquals("search-4242", PageTimer.keyOf("search=4242"));
    }

    /** Each bench/*.sh's main keeps its figures under the script's name, and writes them at the end. */
    @Test
    void everyBenchKeepsItsFiguresUnderItsScriptsName() throws Exception {
        Path root = BenchPlatform.root();
        List<String> scripts;
        try (Stream<Path> files = Files.list(root.resolve("bench"))) {
            scripts = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".sh") && !f.equals("lib.sh")).sorted().toList();
        }
        java.util.regex.Pattern run = java.util.regex.Pattern.compile("bench_run com\\.telemed\\.bench\\.([\\w.]+)");
        List<String> benches = new java.util.ArrayList<>();
        for (String script : scripts) {
            java.util.regex.Matcher main = run.matcher(Files.readString(root.resolve("bench").resolve(script)));
            if (!main.find()) {
                continue; // a tool (results-table.sh), not a bench
            }
            String bench = script.substring(0, script.length() - ".sh".length());
            String source = Files.readString(root.resolve("bench/src/main/java/com/telemed/bench/" + main.group(1).replace('.', '/') + ".java"));
            assertEquals(true, source.contains("Results.open(\"" + bench + "\", args)"), script + ": Results.open(\"" + bench + "\", args)");
            assertEquals(true, source.contains("results.write();"), script + ": results.write()");
            benches.add(bench);
        }
        assertEquals(List.of("billing", "embed-surveys", "events", "footprint", "fulfilment", "gateway-overhead", "members-list", "messaging", "requests",
                "webhook-delivery"), benches);
    }

    private static void git(Path repository, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", repository.toString()));
        command.addAll(List.of(arguments));
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), String.join(" ", command));
    }
}

package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTableTest {

    @TempDir
    Path dir;

    @Test
    void aRowPerBenchByNameWithItsHeadlinesAndRatio() throws Exception {
        ResultsTest.requests(dir).write();
        Results gateway = new Results("gateway-overhead", List.of(), dir, new ResultsTest.Ticks("2026-11-26T22:05:09Z",
                "2026-11-26T22:09:00Z"), ResultsTest.loads(0.05, 2.5), new Results.Commit("0123456789abcdef", true), ResultsTest.HOST);
        gateway.record("isolated.round1.gateway.perSecond", 9000, "req/s", "isolated: round 1, through the gateway");
        gateway.headline("isolated.gateway.perSecond", 9120.4, "req/s", "isolated: through the gateway, 16 clients, median round");
        gateway.ceilingRatio("isolated.ratioToDirect", 78.04, "isolated: gateway / direct throughput");
        gateway.headline("isolated.oneClient.addedP50Ms", 0.4123, "ms", "isolated: latency the gateway adds at p50, 1 client");
        gateway.aim("isolated.oneClient.addedP50Ms", "under 1 ms", true);
        gateway.aim("isolated.ratioToDirect", "at least 80 %", false);
        gateway.write();
        Files.writeString(dir.resolve(".members-list-123.json.tmp"), "{ half a file");
        Files.writeString(dir.resolve("README.md"), "what these files are\n");

        assertEquals("""
                | Bench | Figure | Value | Aim |
                |---|---|---|---|
                | `gateway-overhead` | isolated: through the gateway, 16 clients, median round | 9120 req/s | - |
                | `gateway-overhead` | isolated: latency the gateway adds at p50, 1 client | 0.412 ms | under 1 ms: **met** |
                | `gateway-overhead` | isolated: gateway / direct throughput (ratio to its ceiling) | 78.04 % | at least 80 %: **missed** |
                | `requests` | POST /v1/requests through the gateway, 16 clients | 254.3 req/s | - |
                | `requests` | POST through the gateway / pgbench one-row INSERT (ratio to its ceiling) | 0.389 % | - |

                | Bench | Cores | Load, 1 min (start → end) | Commit | Measured (UTC) |
                |---|---|---|---|---|
                | `gateway-overhead` | 2 | 0.05 → 2.5 | `0123456` (uncommitted changes) | 2026-11-26 22:05 |
                | `requests` | 2 | 0.42 → 1.875 | `c3784f7` | 2026-11-27 03:12 |
                """, ResultsTable.render(dir));
    }

    @Test
    void withoutFilesTheTableSaysSo() throws Exception {
        String empty = """
                | Bench | Figure | Value | Aim |
                |---|---|---|---|
                | no figures yet | | | |
                """;
        assertEquals(empty, ResultsTable.render(dir));
        assertEquals(empty, ResultsTable.render(dir.resolve("absent")));
    }

    @Test
    void aBenchWithoutHeadlinesOrCommitShowsDashes() throws Exception {
        new Results("fulfilment", List.of(), dir, new ResultsTest.Ticks("2026-11-27T04:00:00Z"), ResultsTest.loads(Double.NaN),
                new Results.Commit(null, null), ResultsTest.HOST).write();

        List<String> lines = ResultsTable.render(dir).lines().toList();
        assertEquals("| `fulfilment` | - | - | - |", lines.get(2));
        assertEquals("| `fulfilment` | 2 | ? → ? | unknown | 2026-11-27 04:00 |", lines.get(lines.size() - 1));
    }

    /** The README's table is what the committed bench/results/*.json make: README and results cannot drift apart. */
    @Test
    void theReadmeTableIsMadeFromTheCommittedResults() throws Exception {
        Path root = BenchPlatform.root();
        String readme = Files.readString(root.resolve("README.md"));

        assertEquals(ResultsTable.render(root.resolve("bench/results")), ResultsTable.tableIn(readme),
                "README.md's performance table differs from bench/results/*.json: run bench/results-table.sh --update-readme");
    }

    /** The root README reads on a screen: no line over 200 characters, the performance table's included. */
    @Test
    void noLineOfTheReadmeIsOver200Characters() throws Exception {
        List<String> longer = Files.readAllLines(BenchPlatform.root().resolve("README.md")).stream()
                .filter(line -> line.length() > 200).toList();

        assertEquals(List.of(), longer);
    }

    @Test
    void anAimIsWrittenWithItsFigureAndOnlyForAFigureRecorded() throws Exception {
        Results results = new Results("events", List.of(), dir, new ResultsTest.Ticks("2026-11-27T04:00:00Z"),
                ResultsTest.loads(0.1), new Results.Commit("0123456789abcdef", false), ResultsTest.HOST);
        results.headline("page.p95", 12.5, "ms", "a page, p95");
        results.aim("page.p95", "under 20 ms", true);

        assertThrows(IllegalArgumentException.class, () -> results.aim("page.p99", "under 30 ms", true));
        JsonNode figure = Results.JSON.readTree(results.json()).path("figures").path(0);
        assertEquals("under 20 ms", figure.path("aim").asText());
        assertEquals(true, figure.path("aimMet").asBoolean(false));
    }

    @Test
    void theTableIsReplacedBetweenTheMarkers() {
        String readme = "# Title\n\n## Performance\n\n" + ResultsTable.START + "\nold table\n" + ResultsTable.END + "\n\nAfter.\n";

        String updated = ResultsTable.withTable(readme, "| new |\n");

        assertEquals("# Title\n\n## Performance\n\n" + ResultsTable.START + "\n| new |\n" + ResultsTable.END + "\n\nAfter.\n", updated);
        assertEquals("| new |\n", ResultsTable.tableIn(updated));
        assertThrows(IllegalArgumentException.class, () -> ResultsTable.tableIn("# no markers\n"));
    }
}

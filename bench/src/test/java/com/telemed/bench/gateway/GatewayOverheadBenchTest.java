package com.telemed.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.bench.support.Results;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayOverheadBenchTest {

    @TempDir
    Path dir;

    /** Both setups' rounds kept under keys of their own (none twice), the isolated setup's medians as the headlines. */
    @Test
    void bothSetupsKeptTheIsolatedOneJudged() throws Exception {
        Results results = new Results("gateway-overhead", List.of(), dir, Clock.fixed(Instant.parse("2026-11-27T04:00:00Z"),
                ZoneOffset.UTC), () -> 0.5, new Results.Commit("abc", false), new Results.Host(2, "Linux", "21"));
        URI gateway = URI.create("http://127.0.0.1:1/v1/drugs");
        URI direct = URI.create("http://127.0.0.1:2/v1/drugs");
        // Rounds 1 to 3: gateway 800, 900, 700 req/s at 16 clients against direct 1000; one client: 0.9 ms against 0.5.
        int[] call = {0};
        GatewayOverheadBench.Load load = (name, uri, headers, concurrency, duration) -> {
            int n = call[0]++ % 8;
            if (n == 6 || n == 7) {
                return new double[] {n == 6 ? 1100 : 2000, n == 6 ? 0.9 : 0.5, n == 6 ? 1.4 : 0.8};
            }
            return uri.equals(direct) ? new double[] {1000, 10, 30} : new double[] {new double[] {800, 900, 700}[n / 2], 12, 35};
        };

        GatewayOverheadBench.compare(results, "shared", load, gateway, new String[0], direct, new String[0], 16, Duration.ofSeconds(1));
        GatewayOverheadBench.compare(results, "isolated", load, gateway, new String[0], direct, new String[0], 16, Duration.ofSeconds(1));

        assertEquals(2 * 38, results.figures().size());
        assertEquals(List.of("isolated.gateway.perSecond=800 HEADLINE", "isolated.ratioToDirect=80 CEILING_RATIO",
                        "isolated.oneClient.addedP50Ms=0.4 HEADLINE"),
                results.figures().stream().filter(f -> f.role() != Results.Role.DETAIL)
                        .map(f -> f.key() + "=" + f.value().toPlainString() + " " + f.role()).toList());
        assertEquals("shared.round2.gateway.perSecond=900, shared.round2.ratioToDirect=90, shared.direct.perSecond=1000,"
                        + " shared.oneClient.addedP99Ms=0.6",
                results.figures().stream().filter(f -> List.of("shared.round2.gateway.perSecond", "shared.round2.ratioToDirect",
                                "shared.direct.perSecond", "shared.oneClient.addedP99Ms").contains(f.key()))
                        .map(f -> f.key() + "=" + f.value().toPlainString()).collect(Collectors.joining(", ")));
    }
}

package com.telemed.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.bench.support.Results;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayOverheadBenchTest {

    @TempDir
    Path dir;

    /**
     * Both setups' five rounds kept under keys of their own (none twice), each round running the three in a rotated
     * order, the isolated setup's medians as the headlines and its ratios (to direct, to nginx) as the ceiling
     * ratios; no nginx figure when there is no nginx.
     */
    @Test
    void bothSetupsKeptTheIsolatedOneJudged() throws Exception {
        Results results = new Results("gateway-overhead", List.of(), dir, Clock.fixed(Instant.parse("2026-11-27T04:00:00Z"),
                ZoneOffset.UTC), () -> 0.5, new Results.Commit("abc", false), new Results.Host(2, "Linux", "21"));
        URI gateway = URI.create("http://127.0.0.1:1/v1/drugs");
        URI direct = URI.create("http://127.0.0.1:2/v1/drugs");
        URI nginx = URI.create("http://127.0.0.1:3/v1/drugs");
        // Rounds 1 to 5 at 16 clients: gateway 800, 900, 700, 1000, 600 req/s, direct 1000, nginx 1000, 1125, 1000,
        // 1000, 1250 (to nginx: 80, 80, 70, 100, 48 %; to direct: 80, 90, 70, 100, 60 %);
        // one client: gateway 0.9 ms at p50 against 0.5 direct.
        Map<URI, Integer> calls = new HashMap<>();
        List<String> order = new ArrayList<>();
        GatewayOverheadBench.Load load = (name, uri, headers, concurrency, duration) -> {
            order.add(name);
            if (concurrency == 1) {
                return uri.equals(gateway) ? new double[] {1100, 0.9, 1.4} : new double[] {2000, 0.5, 0.8};
            }
            int round = calls.merge(uri, 1, Integer::sum) - 1;
            if (uri.equals(gateway)) {
                return new double[] {new double[] {800, 900, 700, 1000, 600}[round % 5], 12, 35};
            }
            return uri.equals(nginx) ? new double[] {new double[] {1000, 1125, 1000, 1000, 1250}[round % 5], 11, 32} : new double[] {1000, 10, 30};
        };

        GatewayOverheadBench.compare(results, "shared", load, gateway, new String[0], direct, () -> new String[0], null, 16,
                Duration.ofSeconds(1));
        GatewayOverheadBench.compare(results, "isolated", load, gateway, new String[0], direct, () -> new String[0], nginx, 16,
                Duration.ofSeconds(1));

        assertEquals(56 + 56 + 5 * 4 + 2, results.figures().size());
        assertEquals(List.of("through gateway (round 1)", "direct to service (round 1)", "through nginx (round 1)",
                "direct to service (round 2)", "through nginx (round 2)", "through gateway (round 2)",
                "through nginx (round 3)", "through gateway (round 3)", "direct to service (round 3)",
                "through gateway (round 4)", "direct to service (round 4)", "through nginx (round 4)",
                "direct to service (round 5)", "through nginx (round 5)", "through gateway (round 5)",
                "through gateway, 1 client", "direct to service, 1 client"), order.subList(12, order.size()));
        assertEquals(List.of("isolated.gateway.perSecond=800 HEADLINE", "isolated.ratioToDirect=80 CEILING_RATIO",
                        "isolated.ratioToNginx=80 CEILING_RATIO", "isolated.oneClient.addedP50Ms=0.4 HEADLINE"),
                results.figures().stream().filter(f -> f.role() != Results.Role.DETAIL)
                        .map(f -> f.key() + "=" + f.value().toPlainString() + " " + f.role()).toList());
        assertEquals("shared.round2.gateway.perSecond=900, shared.round2.ratioToDirect=90, shared.direct.perSecond=1000,"
                        + " shared.oneClient.addedP99Ms=0.6, isolated.round2.nginx.perSecond=1125, isolated.nginx.perSecond=1000",
                results.figures().stream().filter(f -> List.of("shared.round2.gateway.perSecond", "shared.round2.ratioToDirect",
                                "shared.direct.perSecond", "shared.oneClient.addedP99Ms", "isolated.round2.nginx.perSecond",
                                "isolated.nginx.perSecond").contains(f.key()))
                        .map(f -> f.key() + "=" + f.value().toPlainString()).collect(Collectors.joining(", ")));
        assertEquals(List.of(), results.figures().stream().filter(f -> f.key().startsWith("shared.") && f.key().contains("ginx"))
                .map(Results.Figure::key).toList());
    }
}

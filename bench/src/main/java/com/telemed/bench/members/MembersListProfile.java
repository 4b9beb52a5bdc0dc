package com.telemed.bench.members;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.JfrProfile;
import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.StatementStats;
import com.telemed.bench.support.Wrk;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a page's cost goes (issue 44, round 3), asked for with {@code BENCH_PROFILE=1} ({@code only}: nothing else): after the measured rounds,
 * each query again through the gateway (wrk, {@code clients}), each process's CPU per page (gateway, members,
 * requests, PostgreSQL) and PostgreSQL's statements per page ({@code pg_stat_statements}, every database). The
 * queries run in the opposite order from the measured rounds, and the first one also first, so that a figure
 * which follows the order (warm-up, the machine's other work) and not the query shows as such. A Flight Recorder
 * profile of the three JVMs splits the last round's CPU by what it ran.
 */
final class MembersListProfile {

    private MembersListProfile() {
    }

    static boolean requested() {
        return "1".equals(System.getenv("BENCH_PROFILE")) || only();
    }

    /** {@code BENCH_PROFILE=only}: the profile without the measured rounds, pgbench's and the plans. */
    static boolean only() {
        return "only".equals(System.getenv("BENCH_PROFILE"));
    }

    /** Before the platform starts: PostgreSQL preloads {@code pg_stat_statements}. */
    static void prepare() {
        if (requested()) {
            StatementStats.preloadForTheNextPlatform();
        }
    }

    private static Map<String, Long> pids(BenchPlatform platform) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (PlatformService service : List.of(PlatformService.GATEWAY, PlatformService.MEMBERS, PlatformService.REQUESTS)) {
            pids.put(service.module(), platform.pid(service));
        }
        return pids;
    }

    /**
     * Before the platform's warm-up: Flight Recorder's recordings, whose profile settings make the JVMs throw
     * compiled code away and compile it again (issue 23), so the warm-up covers that too.
     */
    static JfrProfile record(BenchPlatform platform) throws Exception {
        return JfrProfile.start(pids(platform), BenchPlatform.root().resolve("bench/target/profile"));
    }

    static void run(BenchPlatform platform, JfrProfile jfr, URI gateway, String apiKey, List<ListLoad.Query> queries, int clients,
                    Duration round) throws Exception {
        StatementStats statements = StatementStats.of(platform.postgres());
        ProcessCpu cpu = new ProcessCpu(pids(platform), platform.postgres().pid(), "bench JVM (wrk)", true);
        Instant lastRound = null;
        ProcessCpu.Snapshot lastBefore = null;
        ProcessCpu.Snapshot lastAfter = null;
        long lastPages = 1;
        System.out.printf("%nProfile (BENCH_PROFILE=1): each query for %d s at %d clients, CPU and statements per page, in reverse order%n",
                round.toSeconds(), clients);
        List<ListLoad.Query> order = new ArrayList<>(queries);
        Collections.reverse(order);
        order.add(0, queries.get(0));
        for (ListLoad.Query query : order) {
            URI uri = gateway.resolve(query.pathAndQuery());
            String[] headers = {"x-api-key", apiKey};
            Wrk.run("warm-up", uri, headers, clients, Duration.ofSeconds(3));
            if (statements != null) {
                statements.reset();
            }
            lastRound = Instant.now();
            ProcessCpu.Snapshot before = cpu.snapshot();
            Wrk.Result wrk = Wrk.run("profile", uri, headers, clients, round);
            ProcessCpu.Snapshot after = cpu.snapshot();
            long pages = Math.max(1, wrk.requests());
            lastBefore = before;
            lastAfter = after;
            lastPages = pages;
            System.out.printf("%n== %s: %.0f pages/s, p50 %.2f ms, p99 %.2f ms, %d errors%nCPU per page: %s%n", query.label(),
                    wrk.perSecond(), wrk.p50Ms(), wrk.p99Ms(), wrk.errors(), cpu.describe(before, after, (int) pages));
            if (statements != null) {
                System.out.print(StatementStats.describe(statements.read(), pages, 0.05));
            }
        }
        Map<String, Path> files = jfr.stop();
        System.out.printf("%nFlight Recorder profile of the last round (%s; ms = the process's CPU per page by the samples' shares):%n",
                order.get(order.size() - 1).label());
        for (Map.Entry<String, Path> file : files.entrySet()) {
            long[] was = lastBefore.ticks().get(file.getKey());
            long[] now = lastAfter.ticks().get(file.getKey());
            double cpuMs = was == null || now == null ? 0 : (now[0] + now[1] - was[0] - was[1]) * 10.0 / lastPages;
            System.out.printf("%s (%s):%n%s", file.getKey(), file.getValue(), JfrProfile.breakdown(file.getValue(), lastRound).describe(cpuMs, 25));
        }
    }
}

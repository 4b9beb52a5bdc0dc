package com.telemed.bench.members;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.JfrProfile;
import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.PageTimer;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.Wrk;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issues 4 and 44: page 1 of {@code GET /v1/members} for every filter and search ({@link MembersListQueries}) with
 * 100,000 members for the partner under test among 1,000,000 in all: 16 clients through the gateway beside the
 * page's SQL by pgbench ({@link ListLoad}; aim: p95 under 20 ms through the gateway for every query).
 *
 * <p>Starts its own platform on random loopback ports, creates a partner through the operator API,
 * loads the members straight into the members database ({@link MembersData}), measures, then writes
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL members-service runs, built by members-service's own
 * {@code MemberQueries} ({@link MembersListExplain}), to bench/results/members-list-plans.txt.
 *
 * <p>Run: bench/members-list.sh [seconds per query=10] [warm-up seconds per query=5] [clients=16]
 */
public final class MembersListBench {

    /** Issue 44: page 1 of every query under 20 ms at p95 through the gateway. */
    private static final double AIM_P95_MS = 20;

    private MembersListBench() {
    }

    /** The platform's warm-up: each pass every query for this long, round-robin. */
    private static final Duration WARM_UP_PER_QUERY = Duration.ofSeconds(2);

    /** The warm-up ends once a pass's JVM CPU per page is within this share of the pass before. */
    private static final double WARM = 0.05;

    private static final int LEAST_WARM_UP_PASSES = 4;

    private static final int MOST_WARM_UP_PASSES = 12;

    /**
     * The three JVMs of a page (gateway, members-service, requests-service) compiled before the first measured
     * round: every query round-robin, pass after pass, until their CPU per page (the JIT compilers' threads
     * included) stops falling (at least {@link #LEAST_WARM_UP_PASSES} passes, at most {@link #MOST_WARM_UP_PASSES}). Without it the
     * queries measured first paid for the compilers' work (round 3 of issue 44, measured: "no filter" first at
     * 59 pages/s and 21 ms of the platform's CPU per page, the same query last at 737 pages/s and 2.3 ms), so the
     * figures followed the order of the queries, not their cost. The per-query warm-up of {@link ListLoad} stays.
     */
    static void warmUp(BenchPlatform platform, URI gateway, String apiKey, List<ListLoad.Query> queries, int clients) throws Exception {
        if (!Wrk.available()) {
            System.out.println("(wrk not installed: no platform warm-up)");
            return;
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        for (PlatformService service : List.of(PlatformService.GATEWAY, PlatformService.MEMBERS, PlatformService.REQUESTS)) {
            pids.put(service.module(), platform.pid(service));
        }
        ProcessCpu cpu = new ProcessCpu(pids, 0, "bench JVM (wrk)", true);
        long began = System.nanoTime();
        double previous = Double.MAX_VALUE;
        for (int pass = 1; pass <= MOST_WARM_UP_PASSES; pass++) {
            long pages = 0;
            ProcessCpu.Snapshot before = cpu.snapshot();
            for (ListLoad.Query query : queries) {
                pages += Wrk.run("warm-up", gateway.resolve(query.pathAndQuery()), new String[] {"x-api-key", apiKey}, clients,
                        WARM_UP_PER_QUERY).requests();
            }
            ProcessCpu.Snapshot after = cpu.snapshot();
            long ticks = 0;
            for (String service : pids.keySet()) {
                long[] now = after.ticks().get(service);
                long[] was = before.ticks().get(service);
                ticks += now[0] + now[1] - was[0] - was[1];
            }
            double msPerPage = ticks * 10.0 / Math.max(1, pages);
            System.out.printf("platform warm-up pass %d: %,d pages, %.2f ms of the three JVMs' CPU per page%n", pass, pages, msPerPage);
            if (pass >= LEAST_WARM_UP_PASSES && msPerPage > previous * (1 - WARM)) {
                break;
            }
            previous = msPerPage;
        }
        System.out.printf("platform warmed up in %.0f s%n", (System.nanoTime() - began) / 1e9);
    }

    public static void main(String[] args) throws Exception {
        Duration round = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 10);
        Duration warmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 5);
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Results results = Results.open("members-list", args).parameter("seconds", round).parameter("warmUpSeconds", warmUp)
                .parameter("clients", clients);
        long began = System.nanoTime();
        MembersListProfile.prepare();
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s%n", (System.nanoTime() - began) / 1e9);
            JsonNode partner = platform.api().partner("Bench Health");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            URI gateway = platform.url(PlatformService.GATEWAY);

            PostgresServer postgres = platform.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("members"), postgres.username(), postgres.password())) {
                MembersData.load(db, partnerId);
                Map<MembersListQueries.Query, Long> totals = new LinkedHashMap<>();
                List<ListLoad.Query> queries = new ArrayList<>();
                for (MembersListQueries.Query query : MembersListQueries.all()) {
                    String qs = query.queryString();
                    long total = PageTimer.total(PageTimer.Target.gateway(gateway, apiKey).get("/v1/members" + (qs.isEmpty() ? "" : "?" + qs)));
                    totals.put(query, total);
                    queries.add(query.load(partnerId, total));
                }
                JfrProfile jfr = MembersListProfile.requested() ? MembersListProfile.record(platform) : null;
                warmUp(platform, gateway, apiKey, queries, clients);
                if (!MembersListProfile.only()) {
                    ListLoad.run(results, "GET /v1/members", gateway, apiKey, postgres, "members", queries, clients, warmUp, round, AIM_P95_MS);
                }
                if (MembersListProfile.requested()) {
                    MembersListProfile.run(platform, jfr, gateway, apiKey, queries, clients, round);
                }
                if (!MembersListProfile.only()) {
                    MembersListExplain.run(db, partnerId, totals);
                }
            }
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        if (!MembersListProfile.only()) {
            results.write();
        }
    }
}

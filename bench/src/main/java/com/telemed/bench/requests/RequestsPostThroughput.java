package com.telemed.bench.requests;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.DirectCalls;
import com.telemed.bench.support.LoadRun;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.Pgbench;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.bench.support.Wrk;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * The measurement: {@code POST /v1/requests} (one item, existing member) through the gateway, 16
 * concurrent clients, beside pgbench's one-row INSERT ceiling of the same PostgreSQL server in the
 * same run and the ratio of the two; direct to requests-service for context. Load from wrk
 * (bench/post-json.lua) when installed, else from a JVM client.
 */
final class RequestsPostThroughput {

    private static final int CONCURRENCY = 16;
    /** Warm-up rounds: until the JIT compilers use under {@link #JIT_SETTLED} of the create path's CPU in one. */
    private static final Duration WARM_UP_ROUND = Duration.ofSeconds(30);
    private static final int WARM_UP_ROUNDS_AT_MOST = 16;
    private static final double JIT_SETTLED = 0.03;

    /** One line of figures: calls (or transactions) per second, p50, p99, errors. */
    record Load(String name, double perSecond, double p50Ms, double p99Ms, long errors, long calls) {
        String line() {
            return String.format("%-40s %9.0f /s   p50 %7.2f ms   p99 %7.2f ms   (%d errors or non-2xx)",
                    name, perSecond, p50Ms, p99Ms, errors);
        }

        void record(Results results, String prefix, String label, String unit, Results.Role rateRole) {
            results.load(prefix, label, perSecond, unit, p50Ms, p99Ms, rateRole);
            results.record(prefix + ".errors", errors, "calls", label + ", errors or non-2xx");
        }
    }

    private RequestsPostThroughput() {
    }

    /** What a create is made of: the partner's key, its member and drug, one create made before (its rows the ceiling replays), the body. */
    record Create(String partnerId, String apiKey, String memberId, String drugId, String requestId, String body) {
    }

    /**
     * Kept as {@code post.gateway} and {@code post.direct} (each the mean of two rounds, a gateway round
     * then a direct one before the ceilings and again after them; each round also kept), {@code post.ceiling}
     * (pgbench), the same-statements parts and their ratios; the headline: creates/s through the gateway,
     * and its ratio to the same-statements ceiling.
     */
    static void run(Results results, BenchPlatform platform, Create create, Duration round) throws Exception {
        String partnerId = create.partnerId();
        String apiKey = create.apiKey();
        String body = create.body();
        PostgresServer postgres = platform.postgres();
        URI gateway = platform.url(PlatformService.GATEWAY);
        URI requests = platform.url(PlatformService.REQUESTS);
        boolean wrk = Wrk.available();
        System.out.printf("%nPOST /v1/requests (one item, existing member), %d concurrent clients, rounds of %d s, %s, load from %s%n",
                CONCURRENCY, round.toSeconds(), Machine.loadAverage(), wrk ? "wrk" : "a JVM client (install wrk for figures less disturbed by the load generator)");
        URI viaGateway = gateway.resolve("/v1/requests");
        URI direct = requests.resolve("/v1/requests");
        String[] gatewayHeaders = {"x-api-key", apiKey};
        Profile profile = Profile.beforeWarmUp(platform, wrk);
        warmUp(platform, wrk, viaGateway, gatewayHeaders, body);
        profile.roundStarts();
        Load viaGw1 = post(wrk, "through gateway (round 1)", viaGateway, gatewayHeaders, body, round);
        System.out.println(viaGw1.line());
        profile.stop(viaGw1.calls());
        if ("1".equals(System.getenv("BENCH_CREATE_ONLY"))) {
            viaGw1.record(results, "post.gateway", "POST /v1/requests through the gateway, " + CONCURRENCY + " clients", "req/s",
                    Results.Role.HEADLINE);
            return;
        }
        // Each gateway round has a direct round right after it, and the ceilings run between the two pairs
        // (issue 23: with one gateway round first and one direct round last, this machine's drift made the
        // gateway 60 % of direct in one run and 91 % in the one before).
        Load svc1 = post(wrk, "direct to requests-service (round 1)", direct, DirectCalls.headers("POST", direct, partnerId), body, round);
        System.out.println(svc1.line());
        Pgbench.Result ceiling = Pgbench.oneRowInserts(postgres, CONCURRENCY, round);
        Load db = ceiling == null ? null
                : new Load("pgbench one-row INSERT (same server)", ceiling.perSecond(), ceiling.p50Ms(), ceiling.p99Ms(), ceiling.failed(), 0);
        if (db != null) {
            System.out.println(db.line());
        }
        SameStatementsCeiling.Result same = SameStatementsCeiling.measure(postgres, partnerId, create.memberId(), create.drugId(),
                create.requestId(), CONCURRENCY, round);
        if (same != null) {
            same.parts().forEach((database, part) -> System.out.printf("%-40s %9.0f /s   p50 %7.2f ms   p99 %7.2f ms   (%d failed)%n",
                    "pgbench, a create's " + database + " statements", part.perSecond(), part.p50Ms(), part.p99Ms(), part.failed()));
            System.out.printf("%-40s %9.0f /s%n", "same-statements ceiling (all its parts)", same.perSecond());
        }
        settle(postgres);
        Load viaGw2 = post(wrk, "through gateway (round 2)", viaGateway, gatewayHeaders, body, round);
        System.out.println(viaGw2.line());
        Load svc2 = post(wrk, "direct to requests-service (round 2)", direct, DirectCalls.headers("POST", direct, partnerId), body, round);
        System.out.println(svc2.line());
        Load viaGw = both("through gateway (both rounds)", viaGw1, viaGw2);
        Load svc = both("direct to requests-service (both rounds)", svc1, svc2);
        System.out.println(viaGw.line());
        System.out.println(svc.line());
        System.out.println();
        String clients = ", " + CONCURRENCY + " clients";
        viaGw.record(results, "post.gateway", "POST /v1/requests through the gateway, mean of 2 rounds" + clients, "req/s",
                Results.Role.HEADLINE);
        viaGw1.record(results, "post.gateway.round1", "POST /v1/requests through the gateway, round 1 (before the ceilings)" + clients,
                "req/s", Results.Role.DETAIL);
        viaGw2.record(results, "post.gateway.round2", "POST /v1/requests through the gateway, round 2 (after the ceilings)" + clients,
                "req/s", Results.Role.DETAIL);
        svc1.record(results, "post.direct.round1", "POST /v1/requests direct to requests-service, round 1" + clients, "req/s",
                Results.Role.DETAIL);
        svc2.record(results, "post.direct.round2", "POST /v1/requests direct to requests-service, round 2" + clients, "req/s",
                Results.Role.DETAIL);
        if (db != null) {
            db.record(results, "post.ceiling", "pgbench one-row INSERT, same server" + clients, "tx/s", Results.Role.DETAIL);
        }
        svc.record(results, "post.direct", "POST /v1/requests direct to requests-service, mean of 2 rounds" + clients, "req/s",
                Results.Role.DETAIL);
        if (db != null) {
            results.record("post.ratioToOneRowInsert", 100 * viaGw.perSecond() / db.perSecond(), "%",
                    "POST through the gateway / pgbench one-row INSERT");
        }
        if (same != null) {
            same.parts().forEach((database, part) -> results.load("post.sameStatements." + database,
                    "pgbench, the " + database + " statements of one create, same server" + clients, part.perSecond(), "tx/s",
                    part.p50Ms(), part.p99Ms(), Results.Role.DETAIL));
            results.record("post.sameStatements.perSecond", same.perSecond(), "creates/s",
                    "same-statements ceiling: 1 / sum of 1 / each database's part" + clients);
            results.ceilingRatio("post.ratioToSameStatements", 100 * viaGw.perSecond() / same.perSecond(),
                    "POST through the gateway / the same statements replayed by pgbench");
            System.out.printf("POST /v1/requests through the gateway = %.1f %% of the same-statements ceiling (%.0f vs %.0f /s)%n",
                    100 * viaGw.perSecond() / same.perSecond(), viaGw.perSecond(), same.perSecond());
        }
        results.record("post.gatewayToDirect", 100 * viaGw.perSecond() / svc.perSecond(), "%",
                "POST through the gateway / direct to requests-service");
        if (db != null) {
            System.out.printf("POST /v1/requests through the gateway = %.1f %% of the database's one-row INSERT ceiling (%.0f vs %.0f /s);"
                            + " p99 %.2f ms vs %.2f ms%n", 100 * viaGw.perSecond() / db.perSecond(), viaGw.perSecond(), db.perSecond(),
                    viaGw.p99Ms(), db.p99Ms());
        }
        System.out.printf("gateway = %.0f %% of direct-to-service POST throughput; %s%n", 100 * viaGw.perSecond() / svc.perSecond(),
                Machine.loadAverage());
    }

    /**
     * Creates through the gateway until the JIT has compiled the create path: at this machine's rate a
     * method run once per create needs minutes to reach C2's thresholds, and until then the compilers
     * take a third of the services' CPU and the rest runs slower code (issue 23: a 15-second warm-up
     * measured 82 creates/s where the settled platform makes 281). Rounds of 30 s until the C1 and C2
     * compiler threads of gateway, requests, members and catalogue use under 3 % of their CPU in a round,
     * at most 16 rounds; the rounds' figures are printed, never kept.
     */
    /**
     * The ceilings' rows vacuumed and the server checkpointed before the second pair of rounds, as the loaded data
     * was vacuumed before the first: pgbench writes a hundred thousand creates' rows in half a minute, and the
     * autovacuum and checkpoint they start would otherwise run during the second pair (issue 23: both of its
     * rounds ran 27 to 33 % below the first pair's in one run).
     */
    static void settle(PostgresServer postgres) throws Exception {
        long began = System.nanoTime();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("requests"), postgres.username(), postgres.password());
             Statement st = db.createStatement()) {
            st.execute("VACUUM (ANALYZE) requests, line_items, history_entries");
            st.execute("CHECKPOINT");
        }
        System.out.printf("(the ceilings' rows vacuumed and the server checkpointed in %.1f s)%n", (System.nanoTime() - began) / 1e9);
    }

    private static void warmUp(BenchPlatform platform, boolean wrk, URI viaGateway, String[] headers, String body) throws Exception {
        System.out.printf("warm-up (JIT, pools): rounds of %d s until the JIT compilers use under %.0f %% of the create path's CPU%n",
                WARM_UP_ROUND.toSeconds(), 100 * JIT_SETTLED);
        for (int round = 1; ; round++) {
            List<ThreadCpu> jvms = Profile.CREATE_PATH.stream().map(service -> ThreadCpu.start(platform.pid(service))).toList();
            Load load = post(wrk, "  round " + round, viaGateway, headers, body, WARM_UP_ROUND);
            double jit = ThreadCpu.jitShare(jvms);
            System.out.printf("%s   JIT %.0f %% of the CPU%n", load.line(), 100 * jit);
            if (jit < JIT_SETTLED) {
                return;
            }
            if (round == WARM_UP_ROUNDS_AT_MOST) {
                System.out.println("  the JIT did not settle: the figures below include its work");
                return;
            }
        }
    }

    /** Two rounds as one: their mean rate, mean p50, the higher p99, their errors and calls summed. */
    static Load both(String name, Load first, Load second) {
        return new Load(name, (first.perSecond() + second.perSecond()) / 2, (first.p50Ms() + second.p50Ms()) / 2,
                Math.max(first.p99Ms(), second.p99Ms()), first.errors() + second.errors(), first.calls() + second.calls());
    }

    private static Load post(boolean wrk, String name, URI uri, String[] headers, String body, Duration duration) throws Exception {
        // The previous round's load generator cut its calls in flight: let the gateway settle first.
        Thread.sleep(2000);
        if (wrk) {
            Wrk.Result r = Wrk.post(name, uri, headers, body, CONCURRENCY, duration);
            return new Load(name, r.perSecond(), r.p50Ms(), r.p99Ms(), r.errors(), r.requests());
        }
        LoadRun.Result r = LoadRun.post(name, uri, headers, body, CONCURRENCY, duration);
        return new Load(name, r.perSecond(), r.p50Ms(), r.p99Ms(), r.errors(), r.calls());
    }
}

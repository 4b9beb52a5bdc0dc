package com.telemed.bench.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.DirectCalls;
import com.telemed.webhook.events.EventReads;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.LoadRun;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.Pgbench;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.Wrk;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Issue #42: pages of 100 of {@code GET /v1/events} (partner-extensions.md, Events) with 1,000,000
 * events of one partner. Aim: p95 under 20 ms through the gateway at 16 clients.
 *
 * <p>Starts its own platform on random loopback ports, creates a partner through the operator API,
 * loads its events, deliveries and attempts straight into webhook-service's database ({@link EventsData}),
 * then, each for the same time at the same concurrency:
 * <ul>
 * <li>through the gateway: {@code GET /v1/events?limit=100&after=<cursor>}, each call from a cursor
 * picked at random among 1,000 event ids spread over the partner's events (wrk with
 * bench/events-page.lua; without wrk, this JVM's clients, each on a cursor of its own);</li>
 * <li>the ceiling: the same page's plain SQL run by pgbench on the same server, the one statement
 * webhook-service's {@code events.EventReads.pageSql} writes (the cursor's sequence number by its id, the page,
 * its deliveries), from a random sequence number.</li>
 * </ul>
 *
 * <p>Run: bench/events.sh [events=1000000] [seconds=30] [clients=16] [warm-up seconds=30]
 */
public final class EventsBench {

    /** webhook-service's page after a cursor, as it prepares it: limit 100 + 1, a constant as the service writes it. */
    static final String PAGE = EventReads.pageSql(false, true, 101);

    /** {@link #PAGE} with pgbench's variables: the cursor from a random sequence number, then the partner. */
    static final String PAGE_SQL = "\\set s random(1, :events - 1)\n"
            + bind(PAGE, "md5(:partner::text || ':' || :s::text)::uuid", ":partner") + ";\n";

    private static final double AIM_P95_MS = 20;

    /** {@link #PAGE} to PREPARE, for EXPLAIN with a custom and with the generic plan: the cursor $1, the partner $2. */
    private static final String PAGE_PREPARED = bind(PAGE, "$1", "$2");

    /** The page's statement with its first parameter (the cursor) as {@code cursor} and each other (the partner) as {@code partner}. */
    static String bind(String sql, String cursor, String partner) {
        StringBuilder bound = new StringBuilder(sql.length() + 64);
        boolean first = true;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '?') {
                bound.append(first ? cursor : partner);
                first = false;
            } else {
                bound.append(c);
            }
        }
        return bound.toString();
    }

    /**
     * EXPLAIN (ANALYZE, BUFFERS) of the page from the middle of the partner's events: the plan PostgreSQL picks for
     * these values, then the generic plan a server-prepared statement (pgJDBC, from its fifth execution) may keep.
     */
    static void explain(Connection db, String partnerId, long seq) throws Exception {
        try (java.sql.Statement st = db.createStatement()) {
            st.execute("PREPARE bench_events_page (uuid, text) AS " + PAGE_PREPARED);
            String partner = "'" + partnerId.replace("'", "''") + "'";
            for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
                st.execute("SET plan_cache_mode = " + mode);
                System.out.println("-- the page after event " + seq + " (" + mode + ")");
                try (ResultSet plan = st.executeQuery("EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_events_page (md5(" + partner
                        + " || ':' || " + seq + ")::uuid, " + partner + ")")) {
                    while (plan.next()) {
                        System.out.println("   " + plan.getString(1));
                    }
                }
            }
            st.execute("RESET plan_cache_mode");
            st.execute("DEALLOCATE bench_events_page");
        }
    }

    private EventsBench() {
    }

    private record Figures(double rate, double p50, double p95, double p99, long errors) {
    }

    /** One round of pages through the gateway: wrk with bench/events-page.lua, else this JVM's clients. */
    private static Figures load(URI gateway, String apiKey, List<String> cursors, int clients, Duration round) throws Exception {
        if (Wrk.available()) {
            Path file = Files.createTempFile("bench-events-cursors-", ".txt");
            Files.write(file, cursors);
            Wrk.Result wrk = Wrk.run("gateway, GET /v1/events", gateway.resolve("/v1/events?limit=100"),
                    new String[] {"x-api-key", apiKey}, clients, round, BenchPlatform.root().resolve("bench/events-page.lua"),
                    Map.of("WRK_CURSORS", file.toString()));
            return new Figures(wrk.perSecond(), wrk.p50Ms(), wrk.p95Ms(), wrk.p99Ms(), wrk.errors());
        }
        LoadRun.Result load = LoadRun.each("gateway, GET /v1/events", client -> java.net.http.HttpRequest.newBuilder(
                        gateway.resolve("/v1/events?limit=100&after=" + cursors.get(client * cursors.size() / clients)))
                .header("x-api-key", apiKey).timeout(Duration.ofSeconds(10)).GET().build(), 200, clients, round);
        return new Figures(load.perSecond(), load.p50Ms(), load.latencies().getValueAtPercentile(95) / 1000.0, load.p99Ms(),
                load.errors());
    }

    /**
     * The gateway's share of a page: the same page (one cursor, so the same rows every call) through the gateway and
     * straight to webhook-service with the partner header and service proof the gateway sends (signed as the round
     * starts: a proof is fresh for 60 s), wrk both, one round each at the same concurrency.
     */
    private static void gatewayShare(Results results, BenchPlatform platform, String partnerId, String apiKey, String cursor,
                                     int clients, Duration round) throws Exception {
        Path file = Files.createTempFile("bench-events-cursor-", ".txt");
        Files.write(file, List.of(cursor));
        Path script = BenchPlatform.root().resolve("bench/events-page.lua");
        URI gateway = platform.url(PlatformService.GATEWAY).resolve("/v1/events?limit=100");
        URI service = platform.url(PlatformService.WEBHOOK).resolve("/v1/events?limit=100");
        String[] direct = DirectCalls.headers("GET", service.resolve("/v1/events?limit=100&after=" + cursor), partnerId);
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("gateway", platform.pid(PlatformService.GATEWAY));
        pids.put("webhook-service", platform.pid(PlatformService.WEBHOOK));
        // CPU per page by process: what the gateway adds, readable on a shared machine where the latencies are not.
        ProcessCpu cpu = new ProcessCpu(pids, platform.postgres().pid(), "bench JVM (wrk)", true);
        ProcessCpu.Snapshot start = cpu.snapshot();
        Wrk.Result via = Wrk.run("gateway, one page", gateway, new String[] {"x-api-key", apiKey}, clients, round, script,
                Map.of("WRK_CURSORS", file.toString()));
        ProcessCpu.Snapshot between = cpu.snapshot();
        Wrk.Result straight = Wrk.run("direct to webhook-service, one page", service, direct, clients, round, script,
                Map.of("WRK_CURSORS", file.toString()));
        ProcessCpu.Snapshot end = cpu.snapshot();
        for (Wrk.Result result : List.of(via, straight)) {
            System.out.printf("%-34s %9.0f pages/s   p50 %6.2f ms   p95 %6.2f ms   p99 %6.2f ms   (%d errors)%n",
                    result.name(), result.perSecond(), result.p50Ms(), result.p95Ms(), result.p99Ms(), result.errors());
        }
        System.out.println("  CPU through the gateway: " + cpu.describe(start, between, (int) via.requests()));
        System.out.println("  CPU direct:              " + cpu.describe(between, end, (int) straight.requests()));
        results.record("page.one.gateway.p95", via.p95Ms(), "ms", "one page (the same cursor) through the gateway, p95");
        results.record("page.one.direct.p95", straight.p95Ms(), "ms", "one page (the same cursor) straight to webhook-service, p95");
        results.record("page.one.gatewayRatio", 100 * via.perSecond() / straight.perSecond(), "%",
                "pages/s of the same page through the gateway, of direct");
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Duration round = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 30);
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Duration warmUp = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 30);
        Results results = Results.open("events", args).parameter("events", events).parameter("seconds", round.toSeconds())
                .parameter("clients", clients)
                .parameter("warmUpSeconds", warmUp.toSeconds());
        long began = System.nanoTime();
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s%n", (System.nanoTime() - began) / 1e9);
            JsonNode partner = platform.api().partner("Bench Health");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            PostgresServer postgres = platform.postgres();
            List<String> cursors = new ArrayList<>();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("webhook"), postgres.username(), postgres.password())) {
                EventsData.load(db, partnerId, events);
                Random random = new Random(42);
                try (PreparedStatement select = db.prepareStatement("SELECT id::text FROM events WHERE partner_id = ? AND seq = ?")) {
                    for (int i = 0; i < 1000; i++) {
                        select.setString(1, partnerId);
                        select.setLong(2, 1 + random.nextInt(events - 1));
                        try (ResultSet rows = select.executeQuery()) {
                            rows.next();
                            cursors.add(rows.getString(1));
                        }
                    }
                }
            }
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("webhook"), postgres.username(), postgres.password())) {
                explain(db, partnerId, events / 2);
            }
            URI gateway = platform.url(PlatformService.GATEWAY);
            GatewayApi api = platform.api();
            JsonNode first = api.as(apiKey, "GET", "/v1/events?limit=100&after=" + cursors.get(0), null, 200);
            System.out.printf("a page: %d events, hasMore %s, first %s%n", first.path("events").size(), first.path("hasMore"),
                    first.path("events").path(0).path("delivery"));

            System.out.printf("%nPages of 100 from a random cursor, %d clients for %d s each; loopback, %d cores%n", clients,
                    round.toSeconds(), Machine.cores());
            if (!Wrk.available()) {
                System.out.println("(wrk not installed: this JVM's clients, each on a cursor of its own)");
            }
            // Issue 44: CPU per page by process over the measured round; BENCH_PROFILE=1, a Flight Recorder breakdown too.
            ListLoad.Probe probe = ListLoad.Probe.of(platform, List.of(PlatformService.GATEWAY, PlatformService.WEBHOOK));
            // A warm-up round of the same load, not counted: the gateway's and the service's JIT compile the path.
            Figures warm = load(gateway, apiKey, cursors, clients, warmUp);
            System.out.printf("%-34s %9.0f pages/s   p50 %6.2f ms   p95 %6.2f ms   (not counted)%n", "warm-up, " + warmUp.toSeconds() + " s",
                    warm.rate(), warm.p50(), warm.p95());
            ListLoad.Probe.Started started = probe.begin("pages of 100 from a random cursor, " + clients + " clients");
            Figures measured = load(gateway, apiKey, cursors, clients, round);
            probe.end(started, Math.round(measured.rate() * round.toMillis() / 1000.0));
            probe.finish();
            double rate = measured.rate();
            double p50 = measured.p50();
            double p95 = measured.p95();
            double p99 = measured.p99();
            long errors = measured.errors();
            System.out.printf("%-34s %9.0f pages/s   p50 %6.2f ms   p95 %6.2f ms   p99 %6.2f ms   (%d errors)%n",
                    "through the gateway", rate, p50, p95, p99, errors);
            results.headline("page.gateway.p95", p95, "ms", "GET /v1/events?limit=100 through the gateway, p95 at " + clients + " clients");
            results.aim("page.gateway.p95", "under 20 ms", p95 < AIM_P95_MS && errors == 0);
            results.load("page.gateway", "GET /v1/events?limit=100 through the gateway", rate, "pages/s", p50, p99, Results.Role.DETAIL);
            // The way a partner reads its feed: one reader, one page after another (here from random cursors: cold pages).
            Figures alone = load(gateway, apiKey, cursors, 1, round);
            System.out.printf("%-34s %9.0f pages/s   p50 %6.2f ms   p95 %6.2f ms   p99 %6.2f ms   (%d errors)%n",
                    "through the gateway, one reader", alone.rate(), alone.p50(), alone.p95(), alone.p99(), alone.errors());
            results.headline("page.gateway.oneReader.p95", alone.p95(), "ms",
                    "GET /v1/events?limit=100 through the gateway, p95 of one reader (a partner following its cursor)");
            results.load("page.gateway.oneReader", "GET /v1/events?limit=100 through the gateway, one reader", alone.rate(), "pages/s",
                    alone.p50(), alone.p99(), Results.Role.DETAIL);
            results.aim("page.gateway.oneReader.p95", "under 20 ms", alone.p95() < AIM_P95_MS && alone.errors() == 0);

            if (Wrk.available()) {
                gatewayShare(results, platform, partnerId, apiKey, cursors.get(0), clients, round);
            }

            Pgbench.Result ceiling = Pgbench.run(postgres, "webhook", PAGE_SQL,
                    Map.of("partner", partnerId, "events", Integer.toString(events)), clients, round);
            if (ceiling != null) {
                System.out.printf("%-34s %9.0f pages/s   p50 %6.2f ms   p95 %6.2f ms   p99 %6.2f ms   (%d failed)%n",
                        "ceiling: the page's SQL (pgbench)", ceiling.perSecond(), ceiling.p50Ms(), ceiling.p95Ms(), ceiling.p99Ms(),
                        ceiling.failed());
                results.record("page.sql.p95", ceiling.p95Ms(), "ms", "the page's statement by pgbench, p95");
                results.load("page.sql", "the page's statement by pgbench", ceiling.perSecond(), "pages/s", ceiling.p50Ms(),
                        ceiling.p99Ms(), Results.Role.DETAIL);
                results.ceilingRatio("page.ceilingRatio", 100 * rate / ceiling.perSecond(), "pages/s through the gateway, of the SQL's");
                System.out.printf("through the gateway: %.0f %% of the SQL's pages/s%n", 100 * rate / ceiling.perSecond());
            }
            System.out.println(alone.p95() < AIM_P95_MS && alone.errors() == 0 ? "\naim met for one reader: p95 under 20 ms through the gateway"
                    : "\naim missed for one reader: p95 " + String.format("%.1f", alone.p95()) + " ms (or errors: " + alone.errors() + ")");
            System.out.println(p95 < AIM_P95_MS && errors == 0 ? "aim met at " + clients + " clients too"
                    : "at " + clients + " clients of one partner: p95 " + String.format("%.1f", p95) + " ms (errors: " + errors
                    + "); 16 pages in flight on " + Machine.cores() + " cores each wait for the others' CPU");
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }
}

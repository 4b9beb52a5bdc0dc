package com.telemed.bench.support;

import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Page 1 of a list endpoint for each of its queries (issue 44: every filter the contract has, and search),
 * {@code clients} concurrent clients through the gateway (wrk with bench/list-page.lua; without wrk this JVM's
 * clients), each beside its ceiling: the page's plain SQL (the statements the service runs, built by the
 * service's own query classes) run by pgbench at the same concurrency on the same server. A warm-up round
 * of each query first, not counted. Prints one line per query and keeps {@code list.<query>.gateway.p95Ms},
 * {@code list.<query>.sql.p95Ms}, the rates and their ratio, errors (wrk's 2 s timeout included: such a run misses
 * the aim), and the worst gateway p95 of all queries. With a {@link Probe} (issue 44), each gateway round's CPU per page
 * by process (/proc), and with {@code BENCH_PROFILE=1} a Flight Recorder breakdown of the services' CPU per page.
 * {@code BENCH_LIST_QUERIES=label,label}: only the queries whose label contains one of them (an experiment's loop).
 */
public final class ListLoad {

    /** The platform's warm-up: each pass every query for this long, round-robin. */
    private static final Duration WARM_UP_PER_QUERY = Duration.ofSeconds(2);

    /** The warm-up ends once a pass's JVM CPU per page is within this share of the pass before. */
    private static final double WARM = 0.05;

    private static final int LEAST_WARM_UP_PASSES = 4;

    private static final int MOST_WARM_UP_PASSES = 12;

    /**
     * The JVMs of a page ({@code services}: for a members page the gateway, members-service and requests-service)
     * compiled before the first measured round: every query round-robin, pass after pass, until their CPU per page
     * (the JIT compilers' threads included) stops falling (at least {@link #LEAST_WARM_UP_PASSES} passes, at most {@link #MOST_WARM_UP_PASSES}). Without it the
     * queries measured first paid for the compilers' work (round 3 of issue 44, measured: "no filter" first at
     * 59 pages/s and 21 ms of the platform's CPU per page, the same query last at 737 pages/s and 2.3 ms), so the
     * figures followed the order of the queries, not their cost; the requests list showed the same, its first query
     * at 0.87 + 1.11 ms of the gateway's and requests-service's CPU per page against 0.12 + 0.30 for later ones).
     * The per-query warm-up of {@link #run} stays.
     */
    public static void warmUp(BenchPlatform platform, List<PlatformService> services, URI gateway, String apiKey, List<Query> queries,
                              int clients) throws Exception {
        if (!Wrk.available()) {
            System.out.println("(wrk not installed: no platform warm-up)");
            return;
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        for (PlatformService service : services) {
            pids.put(service.module(), platform.pid(service));
        }
        ProcessCpu cpu = new ProcessCpu(pids, 0, "bench JVM (wrk)", true);
        long began = System.nanoTime();
        double previous = Double.MAX_VALUE;
        for (int pass = 1; pass <= MOST_WARM_UP_PASSES; pass++) {
            long pages = 0;
            ProcessCpu.Snapshot before = cpu.snapshot();
            for (Query query : queries) {
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
            System.out.printf("platform warm-up pass %d: %,d pages, %.2f ms of the page's JVMs' CPU per page%n", pass, pages, msPerPage);
            if (pass >= LEAST_WARM_UP_PASSES && msPerPage > previous * (1 - WARM)) {
                break;
            }
            previous = msPerPage;
        }
        System.out.printf("platform warmed up in %.0f s%n", (System.nanoTime() - began) / 1e9);
    }

    /**
     * One query: its label, the path and query string through the gateway, and the pgbench script of its
     * page's SQL ({@code :name} variables, set from {@code variables}).
     */
    public record Query(String label, String pathAndQuery, String sql, Map<String, String> variables) {
    }

    /** One query's figures: the total the list answered, gateway p95 and rate, the SQL's p95 and rate (NaN without pgbench). */
    public record Measured(Query query, long total, double gatewayP95Ms, double gatewayPerSecond, double sqlP95Ms, double sqlPerSecond) {
    }

    /**
     * Where a page's CPU goes (issue 44): each process's CPU per page over a gateway round (/proc, always), and with
     * {@code BENCH_PROFILE=1} Flight Recorder execution samples of {@code profiled} split by what they ran.
     */
    public static final class Probe {

        private final ProcessCpu cpu;
        private final JfrProfile jfr;
        private final Map<String, Long> profiled;
        private final List<Round> rounds = new ArrayList<>();

        private record Round(String label, Instant start, Instant end, ProcessCpu.Snapshot before, ProcessCpu.Snapshot after,
                             long pages) {
        }

        private Probe(ProcessCpu cpu, JfrProfile jfr, Map<String, Long> profiled) {
            this.cpu = cpu;
            this.jfr = jfr;
            this.profiled = profiled;
        }

        /** Every platform process counted; {@code profiled} recorded when {@code BENCH_PROFILE=1} (started now, before any warm-up). */
        public static Probe of(BenchPlatform platform, List<PlatformService> profiled) throws Exception {
            Map<String, Long> pids = new LinkedHashMap<>();
            for (PlatformService service : PlatformService.values()) {
                long pid = platform.pid(service);
                if (pid > 0) {
                    pids.put(service.module(), pid);
                }
            }
            Map<String, Long> recorded = new LinkedHashMap<>();
            profiled.forEach(service -> recorded.put(service.module(), platform.pid(service)));
            JfrProfile jfr = "1".equals(System.getenv("BENCH_PROFILE"))
                    ? JfrProfile.start(recorded, BenchPlatform.root().resolve("bench/target/profile")) : null;
            return new Probe(new ProcessCpu(pids, platform.postgres().pid(), "bench JVM (wrk)", true), jfr, recorded);
        }

        /** A measured round begins: its CPU and samples are counted from here. */
        public Started begin(String label) {
            return new Started(label, Instant.now(), cpu.snapshot());
        }

        /** The round that began with {@code started} ended with {@code pages} pages: prints its CPU per page by process. */
        public void end(Started started, long pages) {
            ProcessCpu.Snapshot after = cpu.snapshot();
            long counted = Math.max(1, pages);
            rounds.add(new Round(started.label(), started.start(), Instant.now(), started.before(), after, counted));
            System.out.printf("  CPU per page (%d pages): %s%n", counted, cpu.describe(started.before(), after, (int) counted));
        }

        /** A round under way. */
        public record Started(String label, Instant start, ProcessCpu.Snapshot before) {
        }

        /** After all rounds: the Flight Recorder breakdown of each round (ms = the process's CPU per page by the samples' shares). */
        public void finish() throws Exception {
            if (jfr == null) {
                return;
            }
            Map<String, Path> files = jfr.stop();
            System.out.printf("%nFlight Recorder profile per query (execution samples; ms = the process's CPU per page by their shares;"
                    + " files in %s):%n", BenchPlatform.root().resolve("bench/target/profile"));
            for (Round round : rounds) {
                System.out.printf("%s:%n", round.label());
                for (Map.Entry<String, Path> file : files.entrySet()) {
                    long[] was = round.before().ticks().get(file.getKey());
                    long[] now = round.after().ticks().get(file.getKey());
                    double cpuMs = was == null || now == null ? 0 : (now[0] + now[1] - was[0] - was[1]) * 10.0 / Math.max(1, round.pages());
                    System.out.printf(" %s:%n%s", file.getKey(),
                            JfrProfile.breakdown(file.getValue(), round.start(), round.end()).describe(cpuMs, 12));
                }
            }
        }
    }

    private ListLoad() {
    }

    public static List<Measured> run(Results results, String endpoint, URI gateway, String apiKey, PostgresServer postgres,
                                     String database, List<Query> queries, int clients, Duration warmUp, Duration round,
                                     double aimP95Ms) throws Exception {
        return run(results, endpoint, gateway, apiKey, postgres, database, queries, clients, warmUp, round, aimP95Ms, null);
    }

    public static List<Measured> run(Results results, String endpoint, URI gateway, String apiKey, PostgresServer postgres,
                                     String database, List<Query> allQueries, int clients, Duration warmUp, Duration round,
                                     double aimP95Ms, Probe probe) throws Exception {
        List<Query> queries = selected(allQueries);
        System.out.printf("%n%s page 1 (limit 20), %d clients through the gateway for %d s per query (after %d s not counted),"
                        + " beside the page's SQL by pgbench at %d clients; loopback, %d cores, %s%n",
                endpoint, clients, round.toSeconds(), warmUp.toSeconds(), clients, Machine.cores(), Machine.loadAverage());
        if (!Wrk.available()) {
            System.out.println("(wrk not installed: this JVM's clients)");
        }
        System.out.printf("%-44s %8s %9s %8s %8s %9s %8s %7s%n", "query", "total", "gw req/s", "gw p50", "gw p95", "sql tx/s",
                "sql p95", "gw/sql");
        List<Measured> measured = new ArrayList<>();
        double worst = 0;
        String worstQuery = null;
        List<String> errors = new ArrayList<>();
        for (Query query : queries) {
            String key = "list." + PageTimer.keyOf(query.pathAndQuery().replaceFirst("^[^?]*\\??", ""));
            long total = PageTimer.total(PageTimer.Target.gateway(gateway, apiKey).get(query.pathAndQuery()));
            load(gateway, apiKey, query, clients, warmUp);
            Probe.Started started = probe == null ? null : probe.begin(query.label());
            Figures through = load(gateway, apiKey, query, clients, round);
            if (probe != null) {
                probe.end(started, Math.round(through.rate() * round.toMillis() / 1000.0));
            }
            Pgbench.Result sql = Pgbench.run(postgres, database, query.sql(), query.variables(), clients, round);
            double sqlP95 = sql == null ? Double.NaN : sql.p95Ms();
            double sqlRate = sql == null ? Double.NaN : sql.perSecond();
            System.out.printf("%-44s %8d %9.0f %8.2f %8.2f %9.0f %8.2f %6.0f%%%s%n", query.label(), total, through.rate(),
                    through.p50(), through.p95(), sqlRate, sqlP95, 100 * through.rate() / sqlRate,
                    through.errors() > 0 ? "   (" + through.errors() + " errors)" : through.p95() >= aimP95Ms ? "   <-- p95 over the aim" : "");
            String label = "GET " + query.pathAndQuery() + " page 1";
            results.record(key + ".gateway.p95Ms", through.p95(), "ms", label + " through the gateway at " + clients + " clients, p95");
            results.load(key + ".gateway", label + " through the gateway", through.rate(), "pages/s", through.p50(), through.p99(),
                    Results.Role.DETAIL);
            if (sql != null) {
                results.record(key + ".sql.p95Ms", sqlP95, "ms", label + ": its SQL by pgbench, p95");
                results.record(key + ".sql.perSecond", sqlRate, "pages/s", label + ": its SQL by pgbench");
                results.record(key + ".ratio", 100 * through.rate() / sqlRate, "%", label + ": pages/s through the gateway, of the SQL's");
            }
            results.record(key + ".gateway.errors", through.errors(), "calls", label + " through the gateway: non-2xx answers, socket errors and timeouts");
            if (through.errors() > 0) {
                errors.add(query.pathAndQuery() + " (" + through.errors() + ")");
            }
            if (through.p95() > worst) {
                worst = through.p95();
                worstQuery = query.pathAndQuery();
            }
            measured.add(new Measured(query, total, through.p95(), through.rate(), sqlP95, sqlRate));
        }
        if (probe != null) {
            probe.finish();
        }
        results.headline("list.worst.gateway.p95Ms", worst, "ms", endpoint + " page 1, " + clients
                + " clients via the gateway: the slowest query's p95 (" + worstQuery + ")");
        results.aim("list.worst.gateway.p95Ms", "under " + (int) aimP95Ms + " ms, no errors", worst < aimP95Ms && errors.isEmpty());
        System.out.printf("%n%s: the slowest query through the gateway, %s: p95 %.1f ms -> %s%n", endpoint, worstQuery, worst,
                worst < aimP95Ms && errors.isEmpty() ? "aim met (p95 under " + (int) aimP95Ms + " ms for every query)"
                        : "aim missed (p95 not under " + (int) aimP95Ms + " ms" + (errors.isEmpty() ? ")" : ", or errors: " + errors + ")"));
        return measured;
    }

    /** {@code BENCH_LIST_QUERIES}: a comma-separated list of label parts; unset, every query. */
    private static List<Query> selected(List<Query> queries) {
        String wanted = System.getenv("BENCH_LIST_QUERIES");
        if (wanted == null || wanted.isBlank()) {
            return queries;
        }
        List<String> parts = List.of(wanted.toLowerCase(Locale.ROOT).split(","));
        return queries.stream().filter(query -> parts.stream().anyMatch(part -> query.label().toLowerCase(Locale.ROOT)
                .contains(part.trim()))).toList();
    }

    private record Figures(double rate, double p50, double p95, double p99, long errors) {
    }

    private static Figures load(URI gateway, String apiKey, Query query, int clients, Duration round) throws Exception {
        URI uri = gateway.resolve(query.pathAndQuery());
        if (Wrk.available()) {
            Wrk.Result wrk = Wrk.run("gateway, GET " + query.pathAndQuery(), uri, new String[] {"x-api-key", apiKey}, clients, round,
                    BenchPlatform.root().resolve("bench/list-page.lua"), Map.of());
            return new Figures(wrk.perSecond(), wrk.p50Ms(), wrk.p95Ms(), wrk.p99Ms(), wrk.errors());
        }
        HttpRequest request = PageTimer.Target.gateway(gateway, apiKey).get(query.pathAndQuery());
        LoadRun.Result load = LoadRun.each("gateway, GET " + query.pathAndQuery(), client -> request, 200, clients, round);
        return new Figures(load.perSecond(), load.p50Ms(), load.latencies().getValueAtPercentile(95) / 1000.0, load.p99Ms(),
                load.errors());
    }
}

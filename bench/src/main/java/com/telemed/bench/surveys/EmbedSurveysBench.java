package com.telemed.bench.surveys;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.LoadRun;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.Wrk;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.net.http.HttpRequest;
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

/**
 * Issue 20: anonymous embed survey submissions through the gateway, beside the gateway's cheapest
 * authenticated call in the same run as the ceiling, and the ratio.
 *
 * <ol>
 * <li>Submissions: {@code POST /v2/embed/surveys/:id/responses} with the publishable key and an
 *     allow-listed {@code Origin}, a five-question answer with the contact section
 *     ({@link EmbedSurveysData}), {@link #CLIENTS} clients. Checked: every answer {@code 201}, and the
 *     partner's {@code survey_responses} rows in requests-service's database grew by the 201s (plus
 *     at most one call per client cut in flight when the load stopped); how many {@code survey.completed}
 *     outbox rows were left unrelayed when the round ended, and how long they took to go.</li>
 * <li>The ceiling: the gateway's cheapest authenticated call, same clients, same length. Two candidates,
 *     both measured: {@code GET /v1/drugs} with the partner's API key, the call issue 3's benchmark
 *     (bench/gateway-overhead.sh) measures the gateway by (one key lookup, one read in catalogue-service),
 *     and {@code GET /v2/embed/surveys/:id}, the embed's definition read (the same credential path as a
 *     submission, publishable key and origin; one read by primary key in requests-service). The faster
 *     of the two is the ceiling (the definition read in every run so far, 1.7 times as fast on a quiet
 *     machine); the ratio submissions/s over ceiling/s, and over the other for context.</li>
 * <li>With the default limits (skippable): a second gateway JVM on the same database with the
 *     submission limits set to the gateway's defaults; the same submissions from the same loopback address
 *     are then nearly all {@code 429}: what refusing costs.</li>
 * </ol>
 *
 * <p>The platform's gateway runs with both submission limits lifted ({@link #LIFTED} per window): all
 * clients share one loopback address, which the default 20 per minute stops after 20 calls, and
 * the figure wanted is the submission path's. The limiter still runs on every call (one bucket per
 * address and per partner, a cache lookup and a token taken from each), so its cost is included.
 *
 * <p>Each round prints its figures, then the CPU each process used (wrk's in the bench JVM's
 * figure). Warm-up rounds first (JIT, pools). Starts its own platform on random loopback ports
 * (as the other benches); bounded in time, stops by itself.
 *
 * <p>Run: bench/embed-surveys.sh [seconds per round=10] [seconds of submission warm-up=30] [seconds of the
 * default-limits round=5, 0 skips]
 */
public final class EmbedSurveysBench {

    static final int CLIENTS = 16;
    /** Submissions per window (60 s) per address and per partner: far past what the clients can send. */
    static final String LIFTED = "1000000000";
    /** The gateway's defaults (GatewayConfig.EmbedLimits, gateway README), per 60 s window. */
    static final String DEFAULT_PER_ADDRESS = "20";
    static final String DEFAULT_PER_PARTNER = "600";
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final String DRUGS = "GET /v1/drugs (x-api-key)";
    private static final String DEFINITION = "GET /v2/embed/surveys/:id (embed)";
    private static final Duration OUTBOX_DRAIN_CAP = Duration.ofSeconds(60);

    /** One load round: throughput, latency, answers and how many were the expected status, the rest by status. */
    record Round(String name, double perSecond, double p50Ms, double p99Ms, long answers, long expected,
                 long socketErrors, String byStatus) {
        String line() {
            return String.format("%-40s %7.0f req/s   p50 %6.2f ms   p99 %6.2f ms   (%s)", name, perSecond, p50Ms, p99Ms,
                    byStatus);
        }

        boolean allExpected() {
            return answers > 0 && answers == expected && socketErrors == 0;
        }

        /** Kept as {@code <prefix>.perSecond} (with {@code rateRole}), {@code .p50Ms}, {@code .p99Ms}, {@code .answers}, {@code .expected}. */
        void record(Results results, String prefix, String label, int status, Results.Role rateRole) {
            results.load(prefix, label, perSecond, "req/s", p50Ms, p99Ms, rateRole);
            results.record(prefix + ".answers", answers, "answers", label + ", answers");
            results.record(prefix + ".expected", expected, "answers", label + ", answers " + status);
        }
    }

    private final BenchPlatform platform;
    private final EmbedSurveysData data;
    private final Connection requestsDb;
    private final Results results;
    private final boolean wrk = Wrk.available();

    private EmbedSurveysBench(BenchPlatform platform, EmbedSurveysData data, Connection requestsDb, Results results) {
        this.platform = platform;
        this.data = data;
        this.requestsDb = requestsDb;
        this.results = results;
    }

    public static void main(String[] args) throws Exception {
        Duration round = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 10);
        Duration warmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 30);
        Duration limitedRound = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 5);
        Results results = Results.open("embed-surveys", args).parameter("roundSeconds", round).parameter("warmUpSeconds", warmUp)
                .parameter("defaultLimitsRoundSeconds", limitedRound).parameter("clients", CLIENTS);
        long began = System.nanoTime();
        Map<String, String> lifted = Map.of("GATEWAY_EMBED_LIMITS_PER_ADDRESS", LIFTED, "GATEWAY_EMBED_LIMITS_PER_PARTNER", LIFTED);
        try (BenchPlatform platform = BenchPlatform.start(Map.of(), Map.of(PlatformService.GATEWAY, lifted))) {
            System.out.printf("platform up in %.0f s (gateway: GATEWAY_EMBED_LIMITS_PER_ADDRESS and _PER_PARTNER = %s);"
                    + " service logs in %s; %d cores%n", (System.nanoTime() - began) / 1e9, LIFTED, platform.logDirectory(),
                    Machine.cores());
            EmbedSurveysData data = EmbedSurveysData.create(platform.api());
            PostgresServer postgres = platform.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("requests"), postgres.username(), postgres.password())) {
                EmbedSurveysBench bench = new EmbedSurveysBench(platform, data, db, results);
                bench.run(round, warmUp, limitedRound);
            }
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }

    private void run(Duration round, Duration warmUp, Duration limitedRound) throws Exception {
        URI gateway = platform.url(PlatformService.GATEWAY);
        URI submissions = gateway.resolve(EmbedSurveysData.SUBMISSION_PATH);
        URI drugList = gateway.resolve("/v1/drugs");
        URI definition = gateway.resolve(EmbedSurveysData.DEFINITION_PATH);

        EmbedSurveysData.Answer probe = data.submitOnce(gateway);
        if (probe.status() != 201) {
            throw new IllegalStateException("a submission answered " + probe.status() + " " + probe.body());
        }
        platform.api().as(data.apiKey(), "GET", "/v1/drugs", null, 200);
        System.out.printf("one submission (%d bytes): %d %s; RateLimit-Policy: %s%n", EmbedSurveysData.SUBMISSION.length(),
                probe.status(), probe.body(), probe.rateLimitPolicy());
        System.out.printf("%d clients, rounds of %d s, loopback, load from %s%n", CLIENTS, round.toSeconds(),
                wrk ? "wrk (bench/count-statuses.lua: every answer counted by status)"
                        : "a JVM client (install wrk for figures less disturbed by the load generator)");

        ProcessCpu cpu = new ProcessCpu(platformPids(), platform.postgres().pid(), wrk ? "bench JVM + wrk" : "bench JVM (clients)", true);
        System.out.println("warm-up (JIT, pools):");
        submissions(null, "  submissions", submissions, warmUp);
        warmUp(() -> load("  " + DRUGS, drugList, data.partnerHeaders(), null, 200, Duration.ofSeconds(10)));
        warmUp(() -> load("  " + DEFINITION, definition, data.embedHeaders(), null, 200, Duration.ofSeconds(5)));

        System.out.printf("%n== measured; %s%n", Machine.loadAverage());
        Round submitted = submissions(cpu, "embed submissions (POST)", submissions, round);
        Round drugs = measured(cpu, () -> load(DRUGS, drugList, data.partnerHeaders(), null, 200, round), true);
        Round read = measured(cpu, () -> load(DEFINITION, definition, data.embedHeaders(), null, 200, round), true);

        System.out.printf("%n== issue 20: %d clients through the gateway, %d s each; %s%n", CLIENTS, round.toSeconds(), Machine.loadAverage());
        System.out.println(summary("anonymous embed submissions", submitted)
                + (submitted.allExpected() ? "   every answer 201" : "   !! NOT every answer 201"));
        System.out.println(summary(DRUGS, drugs));
        System.out.println(summary(DEFINITION, read));
        Round top = read.perSecond() >= drugs.perSecond() ? read : drugs;
        Round other = top == read ? drugs : read;
        System.out.printf("ceiling, the cheapest authenticated call of the two: %s, %.0f /s%n", top.name(), top.perSecond());
        System.out.printf("ratio: submissions/s / ceiling/s = %.2f (%.0f %%); over %s: %.2f%n", submitted.perSecond() / top.perSecond(),
                100 * submitted.perSecond() / top.perSecond(), other.name(), submitted.perSecond() / other.perSecond());
        String clients = ", " + CLIENTS + " clients";
        submitted.record(results, "submissions", "anonymous embed submissions through the gateway" + clients, 201, Results.Role.HEADLINE);
        drugs.record(results, "drugs", DRUGS + clients, 200, Results.Role.DETAIL);
        read.record(results, "definition", DEFINITION + clients, 200, Results.Role.DETAIL);
        results.record("ceiling.perSecond", top.perSecond(), "req/s", "ceiling, the faster of the two reads: " + top.name());
        results.ceilingRatio("submissions.ratioToCeiling", 100 * submitted.perSecond() / top.perSecond(),
                "submissions / the gateway's cheapest authenticated call");
        results.record("submissions.ratioToOther", 100 * submitted.perSecond() / other.perSecond(), "%",
                "submissions / the other read: " + other.name());

        if (!limitedRound.isZero()) {
            withDefaultLimits(limitedRound);
        }
    }

    /**
     * A second gateway JVM on the same database with the submission limits at the gateway's defaults
     * (its environment is the first one's, so they are named again; its first answer's
     * RateLimit-Policy prints the limits in force).
     */
    private void withDefaultLimits(Duration round) throws Exception {
        System.out.printf("%n== default limits: a second gateway JVM, the same submissions from the same address%n");
        URI replica = platform.platform().startReplica(PlatformService.GATEWAY, Map.of(
                "GATEWAY_EMBED_LIMITS_PER_ADDRESS", DEFAULT_PER_ADDRESS, "GATEWAY_EMBED_LIMITS_PER_PARTNER", DEFAULT_PER_PARTNER));
        long replicaPid = replicaPid(platform.pid(PlatformService.GATEWAY));
        EmbedSurveysData.Answer probe = data.submitOnce(replica);
        System.out.printf("gateway with default limits at %s (pid %d): first submission %d; RateLimit-Policy: %s%n", replica,
                replicaPid, probe.status(), probe.rateLimitPolicy());
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("gateway (default limits)", replicaPid);
        pids.put("requests-service", platform.pid(PlatformService.REQUESTS));
        ProcessCpu cpu = new ProcessCpu(pids, platform.postgres().pid(), wrk ? "bench JVM + wrk" : "bench JVM (clients)", true);
        URI submissions = replica.resolve(EmbedSurveysData.SUBMISSION_PATH);
        warmUp(() -> load("  warm-up", submissions, data.embedHeaders(), EmbedSurveysData.SUBMISSION, 201, round));
        long rowsBefore = stableResponseRows();
        Round limited = measured(cpu, () -> load("submissions, default limits", submissions, data.embedHeaders(),
                EmbedSurveysData.SUBMISSION, 201, round), false);
        long rowsWritten = stableResponseRows() - rowsBefore;
        System.out.printf("   %d submitted (201) and %d response rows written; a 429 closes its connection (HTTP/1.1: the body"
                + " is not read), so each refused call is a new connection too%n", limited.expected(), rowsWritten);
        limited.record(results, "defaultLimits", "submissions, default limits, one address, " + CLIENTS + " clients", 201,
                Results.Role.DETAIL);
        results.record("defaultLimits.rowsWritten", rowsWritten, "rows", "submissions, default limits, response rows written");
    }

    private static String summary(String name, Round round) {
        return String.format("%-34s %7.0f /s   p50 %6.2f ms   p99 %7.2f ms", name, round.perSecond(), round.p50Ms(), round.p99Ms());
    }

    interface Load {
        Round run() throws Exception;
    }

    /** A round after the last one's calls cut in flight settled, printed. */
    private static Round warmUp(Load load) throws Exception {
        Thread.sleep(SETTLE.toMillis());
        Round result = load.run();
        System.out.println(result.line());
        return result;
    }

    /**
     * A round after the last one's calls cut in flight settled, printed with the CPU each process used
     * during it; with {@code checked}, any answer but the expected status is called out.
     */
    private static Round measured(ProcessCpu cpu, Load load, boolean checked) throws Exception {
        Thread.sleep(SETTLE.toMillis());
        ProcessCpu.Snapshot before = cpu.snapshot();
        Round result = load.run();
        ProcessCpu.Snapshot after = cpu.snapshot();
        System.out.println(result.line());
        System.out.println("   CPU: " + cpu.describe(before, after, (int) Math.max(1, result.answers())));
        if (checked && !result.allExpected()) {
            System.out.println("   !! not every answer was the expected status: " + result.byStatus());
        }
        return result;
    }

    /**
     * Submissions (measured when {@code cpu} is given, else a warm-up), then the checks: the response
     * rows written against the 201s, and the outbox's {@code survey.completed} rows left when the load
     * stopped and how long the relay took to send them (after the CPU figures: the relay's work during
     * the round is in them, the rest is not).
     */
    private Round submissions(ProcessCpu cpu, String name, URI uri, Duration duration) throws Exception {
        long rowsBefore = responseRows();
        Load load = () -> load(name, uri, data.embedHeaders(), EmbedSurveysData.SUBMISSION, 201, duration);
        Round result = cpu == null ? warmUp(load) : measured(cpu, load, false);
        long leftInOutbox = outboxRows();
        long rows = stableResponseRows();
        long cut = rows - rowsBefore - result.expected();
        System.out.printf("   check: %d answers, %s; response rows +%d = the %d 201s + %d call(s) cut in flight when the load"
                        + " stopped (at most %d): %s%n", result.answers(), result.allExpected() ? "every one 201" : "!! " + result.byStatus(),
                rows - rowsBefore, result.expected(), cut, CLIENTS, cut >= 0 && cut <= CLIENTS ? "OK" : "!! MISMATCH");
        long drained = drainOutbox();
        System.out.printf("   survey.completed: %d outbox row(s) not yet relayed when the load stopped, none left %.1f s later%n",
                leftInOutbox, drained / 1e9);
        if (cpu != null) {
            results.record("submissions.outboxLeft", leftInOutbox, "rows", "survey.completed outbox rows unrelayed when the load stopped");
            results.record("submissions.outboxDrainSeconds", drained / 1e9, "s", "until the relay sent them");
            results.record("submissions.rowsCutInFlight", cut, "rows", "response rows beyond the 201s (calls cut in flight)");
        }
        return result;
    }

    /** {@code CLIENTS} clients for {@code duration}: GETs, or POSTs of {@code body}; every answer but {@code expected} counted. */
    private Round load(String name, URI uri, String[] headers, String body, int expected, Duration duration) throws Exception {
        if (wrk) {
            Path script = BenchPlatform.root().resolve("bench/count-statuses.lua");
            Wrk.Result r = Wrk.run(name, uri, headers, CLIENTS, duration, script, body == null ? Map.of() : Map.of("WRK_BODY", body));
            long unexpectedStatuses = r.statuses().entrySet().stream().filter(e -> e.getKey() < 200 || e.getKey() > 399)
                    .mapToLong(Map.Entry::getValue).sum();
            long socketErrors = Math.max(0, r.errors() - unexpectedStatuses);
            List<String> parts = new ArrayList<>();
            r.statuses().forEach((status, count) -> parts.add(status + " x " + count));
            if (socketErrors > 0) {
                parts.add(socketErrors + " socket errors");
            }
            return new Round(name, r.perSecond(), r.p50Ms(), r.p99Ms(), r.requests(), r.statuses().getOrDefault(expected, 0L),
                    socketErrors, parts.isEmpty() ? "no answer" : String.join(", ", parts));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).headers(headers).timeout(Duration.ofSeconds(10));
        HttpRequest built = body == null ? request.GET().build()
                : request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        LoadRun.Result r = LoadRun.each(name, client -> built, expected, CLIENTS, duration);
        String others = r.failuresText();
        return new Round(name, r.perSecond(), r.p50Ms(), r.p99Ms(), r.calls(), r.calls() - r.errors(), 0,
                (r.calls() - r.errors()) + " x " + expected + (r.errors() > 0 ? "; " + others : ""));
    }

    /** The platform's processes that a submission or its event passes through, then Kafka. */
    private Map<String, Long> platformPids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("gateway", platform.pid(PlatformService.GATEWAY));
        pids.put("requests-service", platform.pid(PlatformService.REQUESTS));
        pids.put("catalogue-service", platform.pid(PlatformService.CATALOGUE));
        // care.events consumers: each reads every survey.completed.
        pids.put("webhook-service", platform.pid(PlatformService.WEBHOOK));
        pids.put("billing-service", platform.pid(PlatformService.BILLING));
        pids.put("messaging-service", platform.pid(PlatformService.MESSAGING));
        pids.put("kafka", platform.infrastructure().kafka().pid());
        return pids;
    }

    private long responseRows() throws Exception {
        try (PreparedStatement st = requestsDb.prepareStatement("SELECT count(*) FROM survey_responses WHERE partner_id = ?")) {
            st.setString(1, data.partnerId());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Once the calls cut in flight have committed or not: the count unchanged over 500 ms (at most 10 s). */
    private long stableResponseRows() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long last = responseRows();
        while (System.nanoTime() < deadline) {
            Thread.sleep(500);
            long now = responseRows();
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private long outboxRows() throws Exception {
        try (PreparedStatement st = requestsDb.prepareStatement("SELECT count(*) FROM outbox_events");
             ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits (at most {@link #OUTBOX_DRAIN_CAP}) until the relay sent every outbox row; returns the nanoseconds it took. */
    private long drainOutbox() throws Exception {
        long began = System.nanoTime();
        long deadline = began + OUTBOX_DRAIN_CAP.toNanos();
        while (outboxRows() > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(outboxRows() + " outbox rows still unrelayed after " + OUTBOX_DRAIN_CAP.toSeconds() + " s");
            }
            Thread.sleep(100);
        }
        return System.nanoTime() - began;
    }

    /** The second gateway JVM among this JVM's children (the platform starts every service as one). */
    private static long replicaPid(long primaryPid) {
        return ProcessHandle.current().children()
                .filter(child -> child.pid() != primaryPid)
                .filter(child -> child.info().arguments().map(List::of).orElse(List.of()).stream()
                        .anyMatch(arg -> arg.contains("gateway") && arg.endsWith("quarkus-run.jar")))
                .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }
}

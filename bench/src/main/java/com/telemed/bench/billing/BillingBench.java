package com.telemed.bench.billing;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Issue 19, billing-service's ledger and summary:
 * <ol>
 * <li>The consumer's catch-up: {@link BillingData}'s events (by default 1,000,000 members' {@code member.created},
 *     100,000 approvals and 20,000 status changes: 1,120,000 events) published while billing-service is stopped, then
 *     timed from its launch until its database holds every one ({@link LedgerCatchUp}); beside it the ceiling, a plain
 *     Kafka consumer reading the same records ({@link RawConsumerCeiling}), and the ratio of the two rates.</li>
 * <li>{@code GET /v1/billing} for the partner under test, 100,000 billable members among the 1,000,000, through the
 *     gateway (and direct, for context): p50/p95/max over sequential calls, every answer checked
 *     ({@link SummaryTiming}); then EXPLAIN (ANALYZE, BUFFERS) of the read ({@link SummaryExplain}).</li>
 * </ol>
 * Starts its own platform on random loopback ports; the partner is created and its billing settings set through the
 * gateway first, so the events carry its id. Prints CPU per process over each phase and whether other work shared the
 * machine. Stops.
 *
 * <p>Run: bench/billing.sh [members=1000000] [billable=100000] [timed calls=30] [warm-up calls=5]
 */
public final class BillingBench {

    static final BigDecimal RATE = BigDecimal.TEN;

    private BillingBench() {
    }

    public static void main(String[] args) throws Exception {
        int members = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int billable = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        Results results = Results.open("billing", args).parameter("members", members).parameter("billable", billable)
                .parameter("timedCalls", calls).parameter("warmUpCalls", warmUp);
        long began = System.nanoTime();
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s; service logs in %s; %d cores, %s%n", (System.nanoTime() - began) / 1e9,
                    platform.logDirectory(), Machine.cores(), Machine.loadAverage());
            GatewayApi api = platform.api();
            JsonNode partner = api.partner("Bench Billing");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            JsonNode settings = api.send("PUT", "/ops/v1/partners/" + partnerId + "/billing",
                    GatewayApi.JSON.writeValueAsString(SummaryTiming.settings(RATE)), 200);
            System.out.println("partner under test " + partnerId + " (POST /ops/v1/partners), billing settings "
                    + settings + " (PUT /ops/v1/partners/:id/billing, through the gateway)");
            BillingData data = new BillingData(partnerId, members, billable, Instant.now());

            PostgresServer postgres = platform.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.BILLING.database()),
                    postgres.username(), postgres.password())) {
                LedgerCatchUp.Result catchUp = new LedgerCatchUp(platform, data, db).run();

                int maxPollRecords = LedgerCatchUp.maxPollRecords();
                System.out.printf("%n== Ceiling: a plain KafkaConsumer in the bench JVM, new group, earliest, String deserializers,"
                        + " max.poll.records %d (billing-service's), both topics, %,d records; %s%n", maxPollRecords,
                        catchUp.onTopics(), Machine.loadAverage());
                Map<String, Long> pids = new LinkedHashMap<>();
                pids.put("kafka", platform.infrastructure().kafka().pid());
                pids.put("billing-service (idle)", platform.pid(PlatformService.BILLING));
                ProcessCpu ceilingCpu = new ProcessCpu(pids, postgres.pid(), "bench JVM (raw consumer)");
                RawConsumerCeiling.Result best = null;
                for (int round = 1; round <= 2; round++) {
                    RawConsumerCeiling.Result raw = RawConsumerCeiling.run(platform.infrastructure().kafka().bootstrapServers(),
                            catchUp.onTopics(), maxPollRecords, ceilingCpu);
                    System.out.printf("round %d: %,d records (%,.0f MB of values) in %.2f s = %,.0f records/s (first record after"
                                    + " %.2f s)%s%n   CPU: %s%n", round, raw.records(), raw.chars() / 1e6, raw.seconds(), raw.perSecond(),
                            raw.firstRecord(), raw.records() < catchUp.onTopics() ? "  INCOMPLETE" : "", raw.cpu());
                    results.record("ceiling.round" + round + ".perSecond", raw.perSecond(), "records/s",
                            "ceiling: plain KafkaConsumer, round " + round);
                    if (best == null || raw.perSecond() > best.perSecond()) {
                        best = raw;
                    }
                }

                System.out.printf("%n== GET /v1/billing: the partner under test's %,d billable members among %,d; %s%n", billable,
                        members, Machine.loadAverage());
                vacuum(db);
                Map<String, Long> summaryPids = new LinkedHashMap<>();
                summaryPids.put("billing-service", platform.pid(PlatformService.BILLING));
                summaryPids.put("gateway", platform.pid(PlatformService.GATEWAY));
                summaryPids.put("members-service", platform.pid(PlatformService.MEMBERS));
                ProcessCpu summaryCpu = new ProcessCpu(summaryPids, postgres.pid(), "bench JVM (client)");
                Instant periodEnd = new SummaryTiming(data, RATE, summaryCpu, platform.pid(PlatformService.BILLING))
                        .run(results, platform.url(PlatformService.GATEWAY), platform.url(PlatformService.BILLING), apiKey, calls, warmUp);
                SummaryExplain.run(db, partnerId, periodEnd != null ? periodEnd : Instant.now());

                System.out.printf("%n== Summary (%d cores, %s)%n", Machine.cores(), Machine.loadAverage());
                System.out.println(data.breakdown());
                System.out.printf("ledger catch-up (billing-service):  %,d events in %.1f s from its launch = %,.0f events/s"
                                + " (%,.0f events/s from ready)%s%n", catchUp.events(), catchUp.fromLaunch(), catchUp.perSecond(),
                        catchUp.perSecondAfterReady(), catchUp.complete() ? "" : "  (INCOMPLETE)");
                System.out.printf("ceiling (plain KafkaConsumer, best of 2): %,d records in %.2f s = %,.0f records/s%n",
                        best.records(), best.seconds(), best.perSecond());
                System.out.printf("ratio (ledger rate / raw rate) = %.3f: the ledger takes events at %.1f %% of the rate a bare"
                        + " consumer reads them%n", catchUp.perSecond() / best.perSecond(), 100 * catchUp.perSecond() / best.perSecond());
                String catchUpLabel = "ledger catch-up, " + catchUp.events() + " events";
                results.headline("catchUp.perSecond", catchUp.perSecond(), "events/s", catchUpLabel + ", from billing-service's launch");
                results.record("catchUp.perSecondFromReady", catchUp.perSecondAfterReady(), "events/s", catchUpLabel + ", from ready");
                results.record("catchUp.seconds", catchUp.fromLaunch(), "s", catchUpLabel + ", from launch to caught up");
                results.record("catchUp.events", catchUp.events(), "events", "ledger catch-up, events applied"
                        + (catchUp.complete() ? "" : " (INCOMPLETE)"));
                results.record("ceiling.perSecond", best.perSecond(), "records/s", "ceiling: plain KafkaConsumer, best of 2");
                results.record("ceiling.seconds", best.seconds(), "s", "ceiling: plain KafkaConsumer, best of 2, all records");
                results.ceilingRatio("catchUp.ratioToCeiling", 100 * catchUp.perSecond() / best.perSecond(),
                        "ledger events/s / plain KafkaConsumer records/s");
            }
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }

    /**
     * VACUUM (ANALYZE) of the ledger's tables before the summary is timed, as the members benchmark does after its load:
     * the steady state of a long-lived table, not an autovacuum run starting mid-measurement. What autovacuum had done
     * on its own is printed first.
     */
    private static void vacuum(Connection db) throws Exception {
        try (Statement st = db.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT relname, n_live_tup, n_dead_tup, last_autovacuum IS NOT NULL,"
                    + " last_autoanalyze IS NOT NULL FROM pg_stat_user_tables WHERE relname IN ('ledger_members', 'ledger_status_changes')"
                    + " ORDER BY relname")) {
                StringBuilder out = new StringBuilder();
                while (rs.next()) {
                    out.append(out.isEmpty() ? "" : "; ").append(String.format("%s %,d live, %,d dead rows, autovacuumed %s,"
                            + " autoanalyzed %s", rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getBoolean(4) ? "yes" : "no",
                            rs.getBoolean(5) ? "yes" : "no"));
                }
                System.out.println("before: " + out);
            }
            long t = System.nanoTime();
            st.execute("VACUUM (ANALYZE) ledger_members, ledger_status_changes");
            System.out.printf("VACUUM (ANALYZE) ledger_members, ledger_status_changes: %.1f s (the steady state of the tables,"
                    + " not an autovacuum run starting mid-measurement)%n", (System.nanoTime() - t) / 1e9);
        }
    }
}

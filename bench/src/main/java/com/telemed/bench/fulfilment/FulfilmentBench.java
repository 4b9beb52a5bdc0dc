package com.telemed.bench.fulfilment;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 17, requests-service's pharmacy fulfilment: how long {@code items} approved items coming due
 * at once in scheduled mode take to reach the pharmacy, with two requests-service replicas.
 *
 * <ol>
 * <li>The platform in production mode ({@code SERVICE_ENVIRONMENT=production}) with
 *     {@code PHARMACY_INTEGRATION_A_URL} at a loopback pharmacy in this JVM ({@link LoopbackPharmacy}),
 *     and a second requests-service replica (same database; the gateway routes to the first, both
 *     run the dispatcher).</li>
 * <li>Items approved in scheduled mode through the gateway ({@link FulfilmentData}): due in an hour.
 *     "At once" is one SQL {@code UPDATE line_items SET transmit_due_at = now()} of all of them on
 *     requests-service's database; the clock starts when it has committed and stops when a poll
 *     (every {@link DueAtOnce#POLL}) sees the last of them {@code pharmacy_sent}. The pharmacy's own first and
 *     last arrival, and the last {@code pharmacy_sent_at} against the due time, beside it. A warm-up
 *     round of {@code warmUp} items first (JIT, pools, connections), printed, not the figure.</li>
 * <li>Checks: every item exactly once at the pharmacy (keys = the items, no repeat), every item
 *     {@code pharmacy_sent} with an order id of its own, one {@code sent_to_pharmacy} history entry each.</li>
 * <li>The ceiling: as many orders, the first real order's body with a new reference each, posted
 *     straight to that pharmacy by ONE client, one after another on one kept-alive connection
 *     ({@link PharmacyCeiling}); for context also by 16 concurrent clients. The ratio is the one
 *     client's time over the platform's (platform throughput as a fraction of one client's).</li>
 * </ol>
 *
 * <p>The dispatcher runs with requests-service's defaults (read from {@code FulfilmentConfig}'s
 * {@code @WithDefault}s; the bench sets none of {@code requests.fulfilment.*}). CPU per process over the
 * measured round ({@link ProcessCpu}), PostgreSQL's table scans over it, and the WARN/ERROR lines of
 * both replicas' logs ({@link RoundProbes}). The scenario is {@link DueAtOnce}, what is printed and kept
 * {@link FulfilmentReport}. Starts its own platform on random loopback ports, stops; bounded.
 *
 * <p>Run: bench/fulfilment.sh [items=1000] [warm-up items=as many, 0 skips]; with {@code BENCH_JFR=/tmp/fulfilment.jfr}
 * in the environment, flight recordings (profile settings) of both requests-service replicas during the measured
 * round are written beside it ({@code /tmp/fulfilment-requests-service.jfr}, {@code ...-requests-service-replica.jfr}).
 */
public final class FulfilmentBench {

    private final BenchPlatform platform;
    private final LoopbackPharmacy pharmacy;
    private final ProcessCpu cpu;
    private final DueAtOnce scenario;

    private FulfilmentBench(BenchPlatform platform, LoopbackPharmacy pharmacy, Map<String, Long> replicas,
                            Map<String, Path> logs, ProcessCpu cpu) {
        this.platform = platform;
        this.pharmacy = pharmacy;
        this.cpu = cpu;
        this.scenario = new DueAtOnce(platform.postgres(), pharmacy, new RoundProbes(replicas, logs, cpu, pharmacy.port()));
    }

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : items;
        Results results = Results.open("fulfilment", args).parameter("items", items).parameter("warmUpItems", warmUp)
                .parameter("replicas", 2);
        long began = System.nanoTime();
        Vertx vertx = Vertx.vertx();
        try {
            LoopbackPharmacy pharmacy = LoopbackPharmacy.start(vertx);
            Map<String, String> environment = Map.of("SERVICE_ENVIRONMENT", "production",
                    "PHARMACY_INTEGRATION_A_URL", pharmacy.url());
            try (BenchPlatform platform = BenchPlatform.start(environment)) {
                URI replica = platform.platform().startReplica(PlatformService.REQUESTS);
                long primaryPid = platform.pid(PlatformService.REQUESTS);
                long replicaPid = replicaPid(primaryPid);
                Map<String, Long> replicas = new LinkedHashMap<>();
                replicas.put("requests-service", primaryPid);
                replicas.put("requests-service replica", replicaPid);
                Map<String, Path> logs = new LinkedHashMap<>();
                logs.put("requests-service", platform.log(PlatformService.REQUESTS));
                logs.put("requests-service replica", platform.logDirectory().resolve("requests-service-replica-" + replica.getPort() + ".log"));
                Map<String, Long> pids = new LinkedHashMap<>(replicas);
                pids.put("members-service", platform.pid(PlatformService.MEMBERS));
                pids.put("messaging-service", platform.pid(PlatformService.MESSAGING));
                // The rest of the platform too, so that "everything else" is work from outside the platform.
                for (PlatformService other : List.of(PlatformService.GATEWAY, PlatformService.CATALOGUE, PlatformService.BILLING,
                        PlatformService.WEBHOOK)) {
                    pids.put(other.module(), platform.pid(other));
                }
                pids.put("kafka", platform.infrastructure().kafka().pid());
                ProcessCpu cpu = new ProcessCpu(pids, platform.postgres().pid(), "bench JVM (pharmacy, poll)");
                System.out.printf("platform up in %.0f s (SERVICE_ENVIRONMENT=production, PHARMACY_INTEGRATION_A_URL=%s);"
                                + " requests-service pid %d, replica %s pid %d; service logs in %s; %d cores%n",
                        (System.nanoTime() - began) / 1e9, pharmacy.url(), primaryPid, replica, replicaPid,
                        platform.logDirectory(), Machine.cores());
                new FulfilmentBench(platform, pharmacy, replicas, logs, cpu).run(results, items, warmUp);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }

    private void run(Results results, int items, int warmUp) throws Exception {
        System.out.println("dispatcher, per replica (requests-service's defaults, FulfilmentConfig; not set by the bench): "
                + FulfilmentReport.settings());
        PostgresServer postgres = platform.postgres();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.REQUESTS.database()),
                postgres.username(), postgres.password())) {
            long setup = System.nanoTime();
            FulfilmentData data = FulfilmentData.create(platform.api());
            List<FulfilmentData.Item> warm = warmUp > 0 ? data.scheduled(db, warmUp) : List.of();
            List<FulfilmentData.Item> measured = data.scheduled(db, items);
            System.out.printf("%nsetup through the gateway in %.0f s: %d members, %d + %d requests of one item (drug %s, pharmacy"
                            + " method integration_a), pharmacySendAt +1 h, each item approved in the console (%d clients)%n",
                    (System.nanoTime() - setup) / 1e9, FulfilmentData.MEMBERS, warmUp, items, FulfilmentData.DRUG_ID,
                    FulfilmentData.CLIENTS);
            System.out.println("scheduled, not yet due: " + scheduledState(db, measured) + "; " + Machine.loadAverage());

            if (!warm.isEmpty()) {
                System.out.printf("%n== Warm-up round: %d items due at once (not the figure)%n", warm.size());
                FulfilmentReport.print(scenario.run(db, "warm-up", warm));
                Thread.sleep(2000);
            }
            System.out.printf("%n== Measured round: %d items due at once, 2 replicas; %s%n", measured.size(), Machine.loadAverage());
            DueAtOnce.Round platformRound = scenario.run(db, "measured", measured);
            FulfilmentReport.print(platformRound);

            System.out.printf("%n== Ceiling: %d orders straight to the same pharmacy, no platform; %s%n", items, Machine.loadAverage());
            PharmacyCeiling ceiling = new PharmacyCeiling(URI.create(pharmacy.url()), pharmacy.sample());
            System.out.printf("body: the first order requests-service sent (%,d bytes), a new orderReference each;"
                    + " client: JDK HttpClient built as requests-service's%n", ceiling.bodyBytes());
            HttpClient one = PharmacyCeiling.client();
            ceilingRound(ceiling, one, items, 1, "  warm-up, one client");
            PharmacyCeiling.Result sequential = ceilingRound(ceiling, one, items, 1, "one client, one after another");
            HttpClient shared = PharmacyCeiling.client();
            int clients = FulfilmentReport.PARALLEL_CLIENTS;
            ceilingRound(ceiling, shared, items, clients, "  warm-up, " + clients + " clients");
            PharmacyCeiling.Result parallel = ceilingRound(ceiling, shared, items, clients, clients + " concurrent clients (one HttpClient)");

            FulfilmentReport.summary(platformRound, sequential, parallel);
            FulfilmentReport.record(results, platformRound, sequential, parallel);
        }
    }

    private PharmacyCeiling.Result ceilingRound(PharmacyCeiling ceiling, HttpClient client, int orders, int clients,
                                                String name) throws Exception {
        List<PharmacyCeiling.Order> bodies = ceiling.orders(orders);
        LoopbackPharmacy.Round round = pharmacy.startRound();
        ProcessCpu.Snapshot before = cpu.snapshot();
        PharmacyCeiling.Result result = ceiling.run(client, bodies, clients);
        ProcessCpu.Snapshot after = cpu.snapshot();
        String check = round.posts.get() == orders && round.orders.size() == orders && round.repeats.get() == 0
                ? "all received once" : String.format("pharmacy received %d posts, %d distinct", round.posts.get(), round.orders.size());
        System.out.println(result.line(name) + String.format("; %d connection(s) opened; %s", round.connections.get(), check));
        if (!name.startsWith(" ")) {
            System.out.println("   CPU: " + cpu.describe(before, after, orders));
        }
        return result;
    }

    private static String scheduledState(Connection db, List<FulfilmentData.Item> items) throws Exception {
        try (PreparedStatement st = db.prepareStatement("SELECT count(*) FILTER (WHERE status = 'approved'"
                + " AND transmit_due_at > now() + interval '50 minutes' AND NOT pharmacy_sent), count(*) FROM line_items WHERE id = ANY(?)")) {
            st.setArray(1, db.createArrayOf("uuid", items.stream().map(FulfilmentData.Item::itemId).toArray()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != items.size()) {
                    throw new IllegalStateException(rs.getInt(1) + " of " + items.size() + " items are approved and due in an hour");
                }
                return String.format("%d of %d items approved, due in an hour, unsent", rs.getInt(1), rs.getInt(2));
            }
        }
    }

    /** The second requests-service JVM among this JVM's children (the platform starts every service as one). */
    private static long replicaPid(long primaryPid) {
        return ProcessHandle.current().children()
                .filter(child -> child.pid() != primaryPid)
                .filter(child -> child.info().arguments().map(List::of).orElse(List.of()).stream()
                        .anyMatch(arg -> arg.contains("requests-service") && arg.endsWith("quarkus-run.jar")))
                .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }
}

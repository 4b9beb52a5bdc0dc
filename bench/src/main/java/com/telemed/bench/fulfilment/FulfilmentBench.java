package com.telemed.bench.fulfilment;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.Jcmd;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.ServiceLog;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.bench.support.Waits;
import com.telemed.requests.fulfilment.FulfilmentConfig;
import com.telemed.requests.pharmacy.PharmacyConfig;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import io.smallrye.config.WithDefault;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
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
 *     (every {@link #POLL}) sees the last of them {@code pharmacy_sent}. The pharmacy's own first and
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
 * <p>The dispatcher runs with requests-service's defaults (read here from {@link FulfilmentConfig}'s
 * {@code @WithDefault}s; the bench sets none of {@code requests.fulfilment.*}). CPU per process over the
 * measured round ({@link ProcessCpu}), PostgreSQL's table scans over it, and the WARN/ERROR lines of
 * both replicas' logs. Starts its own platform on random loopback ports, stops; bounded.
 *
 * <p>Run: bench/fulfilment.sh [items=1000] [warm-up items=as many, 0 skips]; with {@code BENCH_JFR=/tmp/fulfilment.jfr}
 * in the environment, flight recordings (profile settings) of both requests-service replicas during the measured
 * round are written beside it ({@code /tmp/fulfilment-requests-service.jfr}, {@code ...-requests-service-replica.jfr}).
 */
public final class FulfilmentBench {

    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration ROUND_CAP = Duration.ofMinutes(5);
    private static final int PARALLEL_CLIENTS = 16;
    private static final long BUCKET_MS = 250;

    /** What a round came to. */
    record Round(String name, int items, double seconds, double pharmacyFirst, double pharmacyLast, double dbLast,
                 boolean complete, List<String> problems, String cpu, Map<String, ServiceLog.Summary> logs, String quiet) {
        double perSecond() {
            return items / seconds;
        }
    }

    private final BenchPlatform platform;
    private final LoopbackPharmacy pharmacy;
    private final Map<String, Long> replicas;
    private final Map<String, Path> logs;
    private final ProcessCpu cpu;
    private final PostgresServer postgres;

    private FulfilmentBench(BenchPlatform platform, LoopbackPharmacy pharmacy, Map<String, Long> replicas,
                            Map<String, Path> logs, ProcessCpu cpu) {
        this.platform = platform;
        this.pharmacy = pharmacy;
        this.replicas = replicas;
        this.logs = logs;
        this.cpu = cpu;
        this.postgres = platform.postgres();
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
                + settings());
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
                print(round(db, "warm-up", warm));
                Thread.sleep(2000);
            }
            System.out.printf("%n== Measured round: %d items due at once, 2 replicas; %s%n", measured.size(), Machine.loadAverage());
            Round platformRound = round(db, "measured", measured);
            print(platformRound);

            System.out.printf("%n== Ceiling: %d orders straight to the same pharmacy, no platform; %s%n", items, Machine.loadAverage());
            PharmacyCeiling ceiling = new PharmacyCeiling(URI.create(pharmacy.url()), pharmacy.sample());
            System.out.printf("body: the first order requests-service sent (%,d bytes), a new orderReference each;"
                    + " client: JDK HttpClient built as requests-service's%n", ceiling.bodyBytes());
            HttpClient one = PharmacyCeiling.client();
            ceilingRound(ceiling, one, items, 1, "  warm-up, one client");
            PharmacyCeiling.Result sequential = ceilingRound(ceiling, one, items, 1, "one client, one after another");
            HttpClient shared = PharmacyCeiling.client();
            ceilingRound(ceiling, shared, items, PARALLEL_CLIENTS, "  warm-up, " + PARALLEL_CLIENTS + " clients");
            PharmacyCeiling.Result parallel = ceilingRound(ceiling, shared, items, PARALLEL_CLIENTS,
                    PARALLEL_CLIENTS + " concurrent clients (one HttpClient)");

            summary(platformRound, sequential, parallel);
            record(results, platformRound, sequential, parallel);
        }
    }

    /** One round: the items come due in one UPDATE; polled until all are sent; checked. */
    private Round round(Connection db, String name, List<FulfilmentData.Item> items) throws Exception {
        int n = items.size();
        Object[] ids = items.stream().map(FulfilmentData.Item::itemId).toArray();
        Map<String, Long> logAt = new LinkedHashMap<>();
        logs.forEach((service, log) -> logAt.put(service, ServiceLog.end(log)));
        Map<String, long[]> scansBefore = tableScans(db);
        LoopbackPharmacy.Round orders = pharmacy.startRound();
        String jfr = "measured".equals(name) ? System.getenv("BENCH_JFR") : null;
        if (jfr != null) {
            for (Map.Entry<String, Long> replica : replicas.entrySet()) {
                Jcmd.run(replica.getValue(), "JFR.start", "name=bench", "settings=profile",
                        "filename=" + jfr.replace(".jfr", "") + "-" + replica.getKey().replace(' ', '-') + ".jfr");
            }
        }
        Map<String, ThreadCpu> threads = new LinkedHashMap<>();
        replicas.forEach((replica, pid) -> threads.put(replica, ThreadCpu.start(pid)));
        ProcessCpu.Snapshot cpuBefore = cpu.snapshot();
        long[] kernelBefore = kernelTicks();

        Instant due;
        long updateStarted = System.nanoTime();
        try (PreparedStatement update = db.prepareStatement("UPDATE line_items SET transmit_due_at = now()"
                + " WHERE id = ANY(?) AND transmit_due_at IS NOT NULL AND NOT pharmacy_sent RETURNING transmit_due_at")) {
            update.setArray(1, db.createArrayOf("uuid", ids));
            int updated = 0;
            Instant first = null;
            try (ResultSet rs = update.executeQuery()) {
                while (rs.next()) {
                    updated++;
                    first = first == null ? rs.getTimestamp(1).toInstant() : first;
                }
            }
            due = first;
            if (updated != n) {
                throw new IllegalStateException("the UPDATE made " + updated + " of " + n + " items due");
            }
        }
        long t0 = System.nanoTime(); // autocommit: the UPDATE has committed when its result is read
        long updateMs = (t0 - updateStarted) / 1_000_000;

        // Polled every POLL: sent, claimed (in flight), held or failed, and the batches (claims) seen.
        Set<UUID> claims = new HashSet<>();
        int[] state = new int[4];
        long[] done = new long[1];
        int[] maxClaimed = new int[1];
        try (Connection poll = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.REQUESTS.database()),
                postgres.username(), postgres.password());
             PreparedStatement st = poll.prepareStatement("SELECT count(*) FILTER (WHERE pharmacy_sent),"
                     + " count(*) FILTER (WHERE transmission_claim IS NOT NULL AND NOT pharmacy_sent),"
                     + " count(*) FILTER (WHERE transmission_error IS NOT NULL AND NOT pharmacy_sent),"
                     + " array_agg(DISTINCT transmission_claim) FILTER (WHERE transmission_claim IS NOT NULL)"
                     + " FROM line_items WHERE id = ANY(?)")) {
            st.setArray(1, poll.createArrayOf("uuid", ids));
            Waits.until(ROUND_CAP, POLL, () -> {
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    state[0] = rs.getInt(1);
                    state[1] = rs.getInt(2);
                    state[2] = rs.getInt(3);
                    maxClaimed[0] = Math.max(maxClaimed[0], state[1]);
                    java.sql.Array array = rs.getArray(4);
                    if (array != null) {
                        for (Object claim : (Object[]) array.getArray()) {
                            claims.add((UUID) claim);
                        }
                    }
                    if (state[0] == n) {
                        done[0] = System.nanoTime();
                        return true;
                    }
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        boolean complete = done[0] != 0;
        long stopped = complete ? done[0] : System.nanoTime();
        ProcessCpu.Snapshot cpuAfter = cpu.snapshot();
        long[] kernelAfter = kernelTicks();
        Map<String, String> threadCpu = new LinkedHashMap<>();
        threads.forEach((replica, sampler) -> threadCpu.put(replica, sampler.describe(0.03)));
        if (jfr != null) {
            for (long pid : replicas.values()) {
                Jcmd.run(pid, "JFR.stop", "name=bench");
            }
        }
        Map<Integer, Long> ports = SocketOwners.clientPorts(pharmacy.port(), new ArrayList<>(replicas.values()));

        List<String> problems = new ArrayList<>();
        if (!complete) {
            problems.add(String.format("only %d of %d sent within %d s (%d held or failed)", state[0], n,
                    ROUND_CAP.toSeconds(), state[2]));
        }
        Set<String> expected = new HashSet<>();
        items.forEach(item -> expected.add(item.itemId().toString()));
        if (orders.posts.get() != n) {
            problems.add("the pharmacy received " + orders.posts.get() + " orders, not " + n);
        }
        if (orders.repeats.get() != 0) {
            problems.add(orders.repeats.get() + " orders were posted again (a repeated Idempotency-Key)");
        }
        if (orders.mismatched.get() != 0) {
            problems.add(orders.mismatched.get() + " orders whose Idempotency-Key is not their orderReference");
        }
        if (!orders.orders.keySet().equals(expected)) {
            problems.add("the pharmacy's order keys are not exactly the round's items");
        }
        Instant lastSent = null;
        try (PreparedStatement st = db.prepareStatement("SELECT count(*) FILTER (WHERE pharmacy_sent),"
                + " count(DISTINCT pharmacy_order_id), count(*) FILTER (WHERE transmission_error IS NOT NULL),"
                + " max(pharmacy_sent_at), (SELECT count(*) FROM history_entries h WHERE h.item_id = ANY(?) AND h.action = 'sent_to_pharmacy'),"
                + " (SELECT count(*) FROM prescription_records r WHERE r.line_item_id = ANY(?) AND r.status = 'sent_to_pharmacy')"
                + " FROM line_items WHERE id = ANY(?)")) {
            for (int i = 1; i <= 3; i++) {
                st.setArray(i, db.createArrayOf("uuid", ids));
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != n || rs.getInt(2) != n || rs.getInt(5) != n || rs.getInt(6) != n) {
                    problems.add(String.format("database: %d pharmacy_sent, %d distinct order ids, %d sent_to_pharmacy history"
                            + " entries, %d records sent_to_pharmacy (of %d)", rs.getInt(1), rs.getInt(2), rs.getInt(5), rs.getInt(6), n));
                }
                if (rs.getInt(3) != 0) {
                    problems.add(rs.getInt(3) + " items with a transmission_error (held or failed)");
                }
                lastSent = rs.getTimestamp(4) == null ? null : rs.getTimestamp(4).toInstant();
            }
        }
        Thread.sleep(1500); // backends report their table statistics within a second or so
        Map<String, long[]> scansAfter = tableScans(db);
        Map<String, ServiceLog.Summary> logged = new LinkedHashMap<>();
        for (Map.Entry<String, Path> log : logs.entrySet()) {
            logged.put(log.getKey(), ServiceLog.since(log.getValue(), logAt.get(log.getKey())));
        }

        double seconds = (stopped - t0) / 1e9;
        double first = orders.arrivals.isEmpty() ? Double.NaN : (orders.firstNanos() - t0) / 1e9;
        double last = orders.arrivals.isEmpty() ? Double.NaN : (orders.lastNanos() - t0) / 1e9;
        double dbLast = lastSent == null || due == null ? Double.NaN : Duration.between(due, lastSent).toNanos() / 1e9;
        System.out.printf("UPDATE of %d rows took %d ms; polled every %d ms; %d batches (claims) seen, at most %d items"
                + " claimed and unsent at a poll%n", n, updateMs, POLL.toMillis(), claims.size(), maxClaimed[0]);
        System.out.println("per replica (orders by the client port they came from): " + perReplica(orders, ports, t0));
        System.out.println("orders reaching the pharmacy per " + BUCKET_MS + " ms after the UPDATE's commit: "
                + timeline(orders, ports, t0));
        System.out.println("PostgreSQL scans during the round (seq / index, pg_stat_user_tables): " + scanDelta(scansBefore, scansAfter));
        System.out.println("plan of a transmission's record lookup (Transmissions.claimed: lineItemId = ?, status <> voided,"
                + " newest first): " + recordLookupPlan(db, items.get(0).itemId()));
        threadCpu.forEach((replica, line) -> System.out.println(replica + " CPU by thread: " + line));
        // Interrupts (loopback TCP's softirq among them) and steal are nobody's process time: told apart from the rest.
        double interrupts = (kernelAfter[0] - kernelBefore[0]) / 100.0;
        double steal = (kernelAfter[1] - kernelBefore[1]) / 100.0;
        double foreign = Math.max(0, foreignSeconds(cpuBefore, cpuAfter) - interrupts - steal);
        String quiet = String.format("%s: %.1f s of CPU outside the platform and this JVM during the round (besides %.1f s in"
                        + " interrupts, %.1f s stolen by the hypervisor)%s",
                foreign > 0.1 * seconds * Machine.cores() ? "NOT a clean figure" : "a quiet machine", foreign, interrupts, steal,
                foreign > 0.1 * seconds * Machine.cores() ? ": another build or test on the machine?" : "");
        return new Round(name, n, seconds, first, last, dbLast, complete, problems,
                cpu.describe(cpuBefore, cpuAfter, n), logged, quiet);
    }

    /** The machine's irq + softirq ticks, and its steal ticks (/proc/stat). */
    private static long[] kernelTicks() {
        try {
            String[] f = java.nio.file.Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return new long[] {Long.parseLong(f[6]) + Long.parseLong(f[7]), Long.parseLong(f[8])};
        } catch (Exception e) {
            return new long[2];
        }
    }

    /** Machine busy time no process of the platform (nor this JVM) accounts for, in seconds. */
    private static double foreignSeconds(ProcessCpu.Snapshot before, ProcessCpu.Snapshot after) {
        long named = 0;
        for (Map.Entry<String, long[]> entry : after.ticks().entrySet()) {
            long[] was = before.ticks().getOrDefault(entry.getKey(), new long[2]);
            named += entry.getValue()[0] - was[0] + entry.getValue()[1] - was[1];
        }
        return Math.max(0, after.machineBusy() - before.machineBusy() - named) / 100.0;
    }

    private static void print(Round round) {
        System.out.printf("%s: %d items transmitted in %.2f s after the UPDATE's commit (last seen pharmacy_sent by the poll)"
                        + " = %.0f items/s; pharmacy: first order at %.3f s, last at %.3f s; last pharmacy_sent_at - due time"
                        + " (database clock) %.3f s%n", round.name(), round.items(), round.seconds(), round.perSecond(),
                round.pharmacyFirst(), round.pharmacyLast(), round.dbLast());
        System.out.println("   checks: " + (round.problems().isEmpty()
                ? "every item exactly once at the pharmacy (Idempotency-Key = orderReference, keys = the items), every item"
                + " pharmacy_sent with an order id of its own, its record sent_to_pharmacy, one sent_to_pharmacy history entry"
                : "FAILED: " + String.join("; ", round.problems())));
        System.out.println("   CPU: " + round.cpu());
        System.out.println("   " + round.quiet());
        round.logs().forEach((service, summary) -> System.out.println("   " + service + " log: " + summary.describe(8)));
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

    private void summary(Round platformRound, PharmacyCeiling.Result sequential, PharmacyCeiling.Result parallel) {
        System.out.printf("%n== Summary (%d cores, %s)%n", Machine.cores(), Machine.loadAverage());
        System.out.printf("items %d, replicas 2; dispatcher per replica: %s%n", platformRound.items(), settings());
        System.out.printf("platform, scheduled items due at once:  %6.2f s to the last transmitted  %6.0f items/s%s%n",
                platformRound.seconds(), platformRound.perSecond(), platformRound.problems().isEmpty() ? "" : "  (CHECKS FAILED)");
        System.out.printf("ceiling, one client, one connection:    %6.2f s                         %6.0f orders/s%n",
                sequential.seconds(), sequential.perSecond());
        System.out.printf("for context, %d concurrent clients:     %6.2f s                         %6.0f orders/s%n",
                PARALLEL_CLIENTS, parallel.seconds(), parallel.perSecond());
        System.out.printf("ratio (one client's time / the platform's) = %.3f: the platform transmits at %.1f %% of one client's"
                        + " rate (%.1f %% of %d clients')%n", sequential.seconds() / platformRound.seconds(),
                100 * sequential.seconds() / platformRound.seconds(), 100 * parallel.seconds() / platformRound.seconds(), PARALLEL_CLIENTS);
        System.out.println("measured round: " + platformRound.quiet());
        long errors = platformRound.logs().values().stream().mapToLong(ServiceLog.Summary::errors).sum();
        long warnings = platformRound.logs().values().stream().mapToLong(ServiceLog.Summary::warnings).sum();
        System.out.printf("requests-service (both replicas) logged %d ERROR and %d WARN lines during the measured round%n",
                errors, warnings);
    }

    /**
     * The summary's figures, kept: {@code measured.*} (the platform's round), {@code ceiling.oneClient.*},
     * {@code ceiling.parallel.*}, the ratios, {@code log.*}. The headline: the platform's items/s, and its
     * ratio to one client's orders/s.
     */
    private static void record(Results results, Round platformRound, PharmacyCeiling.Result sequential,
                               PharmacyCeiling.Result parallel) {
        String label = platformRound.items() + " scheduled items due at once, 2 replicas";
        results.headline("measured.perSecond", platformRound.perSecond(), "items/s", label);
        results.record("measured.seconds", platformRound.seconds(), "s", label + ", to the last transmitted");
        results.record("measured.pharmacyFirstSeconds", platformRound.pharmacyFirst(), "s", label + ", first order at the pharmacy");
        results.record("measured.pharmacyLastSeconds", platformRound.pharmacyLast(), "s", label + ", last order at the pharmacy");
        results.record("measured.lastSentAfterDueSeconds", platformRound.dbLast(), "s",
                label + ", last pharmacy_sent_at - due time (database clock)");
        results.record("measured.failedChecks", platformRound.problems().size(), "checks", label + ", checks failed");
        sequential.record(results, "ceiling.oneClient", "ceiling: one client, one connection");
        parallel.record(results, "ceiling.parallel", "for context: " + PARALLEL_CLIENTS + " concurrent clients");
        results.ceilingRatio("measured.ratioToCeiling", 100 * sequential.seconds() / platformRound.seconds(),
                "platform items/s / one client's orders/s");
        results.record("measured.ratioToParallel", 100 * parallel.seconds() / platformRound.seconds(), "%",
                "platform items/s / " + PARALLEL_CLIENTS + " clients' orders/s");
        results.record("log.errors", platformRound.logs().values().stream().mapToLong(ServiceLog.Summary::errors).sum(), "lines",
                "requests-service ERROR lines (both replicas), measured round");
        results.record("log.warnings", platformRound.logs().values().stream().mapToLong(ServiceLog.Summary::warnings).sum(),
                "lines", "requests-service WARN lines (both replicas), measured round");
    }

    /** How many orders each replica sent, and its first and last arrival after the commit. */
    private String perReplica(LoopbackPharmacy.Round orders, Map<Integer, Long> ports, long t0) {
        Map<String, long[]> by = new LinkedHashMap<>(); // count, first, last
        Map<Long, String> names = new LinkedHashMap<>();
        replicas.forEach((name, pid) -> names.put(pid, name));
        Map<String, Set<Integer>> connections = new LinkedHashMap<>();
        for (LoopbackPharmacy.Arrival arrival : orders.arrivals) {
            String name = names.getOrDefault(ports.get(arrival.clientPort()), "unknown (connection closed)");
            long[] figures = by.computeIfAbsent(name, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
            figures[0]++;
            figures[1] = Math.min(figures[1], arrival.nanos());
            figures[2] = Math.max(figures[2], arrival.nanos());
            connections.computeIfAbsent(name, k -> new HashSet<>()).add(arrival.clientPort());
        }
        StringBuilder out = new StringBuilder();
        by.forEach((name, f) -> out.append(out.isEmpty() ? "" : "; ").append(String.format(
                "%s %d orders on %d connections, first %.3f s, last %.3f s", name, f[0], connections.get(name).size(),
                (f[1] - t0) / 1e9, (f[2] - t0) / 1e9)));
        return out.append(String.format(" (%d connections opened in the round)", orders.connections.get())).toString();
    }

    /** Orders per bucket after the commit, per replica: "0.25s 0+0, 0.50s 12+40, ..." (primary+replica). */
    private String timeline(LoopbackPharmacy.Round orders, Map<Integer, Long> ports, long t0) {
        List<Long> pids = new ArrayList<>(replicas.values());
        Map<Long, int[]> buckets = new java.util.TreeMap<>();
        for (LoopbackPharmacy.Arrival arrival : orders.arrivals) {
            long bucket = Math.max(0, (arrival.nanos() - t0) / 1_000_000 / BUCKET_MS);
            int[] counts = buckets.computeIfAbsent(bucket, k -> new int[3]);
            Long pid = ports.get(arrival.clientPort());
            counts[pid == null ? 2 : pid.equals(pids.get(0)) ? 0 : 1]++;
        }
        if (buckets.isEmpty()) {
            return "none";
        }
        StringBuilder out = new StringBuilder("(primary+replica[+unknown])");
        long lastBucket = ((java.util.TreeMap<Long, int[]>) buckets).lastKey();
        for (long b = 0; b <= lastBucket; b++) {
            int[] c = buckets.getOrDefault(b, new int[3]);
            out.append(String.format(" %.2fs %d+%d%s", (b + 1) * BUCKET_MS / 1000.0, c[0], c[1], c[2] == 0 ? "" : "+" + c[2]));
        }
        return out.toString();
    }

    /** seq_scan, idx_scan of the tables a transmission reads or writes. */
    private static Map<String, long[]> tableScans(Connection db) throws Exception {
        Map<String, long[]> scans = new LinkedHashMap<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT relname, seq_scan, coalesce(idx_scan, 0)"
                + " FROM pg_stat_user_tables WHERE relname IN ('line_items', 'requests', 'prescription_records', 'history_entries',"
                + " 'fulfilment_settings') ORDER BY relname")) {
            while (rs.next()) {
                scans.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
            }
        }
        return scans;
    }

    private static String scanDelta(Map<String, long[]> before, Map<String, long[]> after) {
        StringBuilder out = new StringBuilder();
        after.forEach((table, a) -> {
            long[] b = before.getOrDefault(table, new long[2]);
            out.append(out.isEmpty() ? "" : ", ").append(String.format("%s %d / %d", table, a[0] - b[0], a[1] - b[1]));
        });
        return out.toString();
    }

    /** EXPLAIN of the query Hibernate runs for PrescriptionRecord.find("lineItemId = ?1 and status <> ?2 order by createdAt desc, id desc"). */
    private static String recordLookupPlan(Connection db, UUID itemId) throws Exception {
        try (PreparedStatement st = db.prepareStatement("EXPLAIN SELECT * FROM prescription_records WHERE line_item_id = ?"
                + " AND status <> 'voided' ORDER BY created_at DESC, id DESC LIMIT 1")) {
            st.setObject(1, itemId);
            List<String> plan = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    plan.add(rs.getString(1).trim());
                }
            }
            return String.join(" | ", plan);
        }
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

    /** The dispatcher's pace as requests-service's defaults set it. */
    private static String settings() {
        return String.format("poll interval %s, batch %s, parallelism %s, claim lease %s; pharmacy timeout %s",
                withDefault(FulfilmentConfig.class, "pollInterval"), withDefault(FulfilmentConfig.class, "batchSize"),
                withDefault(FulfilmentConfig.class, "parallelism"), withDefault(FulfilmentConfig.class, "claimLease"),
                withDefault(PharmacyConfig.class, "timeout"));
    }

    private static String withDefault(Class<?> config, String method) {
        try {
            WithDefault value = config.getMethod(method).getAnnotation(WithDefault.class);
            return value == null ? "?" : value.value();
        } catch (NoSuchMethodException e) {
            return "?";
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

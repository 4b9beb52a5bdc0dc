package com.telemed.bench.webhook;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.Jcmd;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.StatementStats;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import io.vertx.core.Vertx;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Issues 6 and 44, webhook-service: how fast events reach a partner's webhook receiver. Aim (issue 44): end to end at
 * least 50 % of the ceiling below, p99 approve-to-receipt under 10 ms unloaded.
 *
 * <ol>
 * <li>Throughput: {@code partners} partners whose webhook URLs point at a fast receiver in this JVM
 *     ({@link Receiver}), {@code events} envelopes published onto {@code care.events}; one warm-up round,
 *     then {@link #ROUNDS} measured rounds ({@link DeliveryThroughput}), the median being the figure.</li>
 * <li>Ceiling, in the same run: the same receiver driven by the same client as webhook-service's, without
 *     Kafka or the database ({@link DeliveryCeiling}); the ratio service / ceiling.</li>
 * <li>Latency, the real path at a modest rate: from the approving call's response to the receipt of its
 *     {@code item.approved} webhook ({@link DeliveryLatency}).</li>
 * </ol>
 *
 * <p>Starts its own platform on random loopback ports (as the other benches). Bounded: every wait has a
 * cap, and the run stops by itself.
 *
 * <p>Run: bench/webhook-delivery.sh [partners=20] [events=20000, 0 skips] [approvals=300, 0 skips]
 * [ms between approvals=50]; with {@code BENCH_JFR=/tmp/webhook.jfr} in the environment, a flight
 * recording (profile settings) of webhook-service during the first measured round is written there; with
 * {@code BENCH_PROFILE=1}, {@link Profile} prints where that round's cost per event went.
 */
public final class WebhookDeliveryBench {

    private static final int ROUNDS = 3;

    private WebhookDeliveryBench() {
    }

    public static void main(String[] args) throws Exception {
        int partnerCount = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int approvals = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        long pacingMs = args.length > 3 ? Long.parseLong(args[3]) : 50;
        int concurrency = Math.min(Webhooks.MAX_IN_FLIGHT, partnerCount * Webhooks.MAX_IN_FLIGHT_PER_PARTNER);
        Results results = Results.open("webhook-delivery", args).parameter("partners", partnerCount).parameter("events", events)
                .parameter("approvals", approvals).parameter("msBetweenApprovals", pacingMs).parameter("inFlight", concurrency);
        long began = System.nanoTime();
        Vertx vertx = Vertx.vertx();
        if (Profile.requested()) {
            StatementStats.preloadForTheNextPlatform();
        }
        try (BenchPlatform platform = BenchPlatform.start()) {
            Receiver receiver = Receiver.start(vertx);
            System.out.printf("platform up in %.0f s; receiver on 127.0.0.1:%d (Vert.x, answers 200 at once); %d cores%n",
                    (System.nanoTime() - began) / 1e9, receiver.port(), Machine.cores());
            GatewayApi api = platform.api();
            Infrastructure infrastructure = platform.infrastructure();
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("webhook-service", platform.pid(PlatformService.WEBHOOK));
            pids.put("kafka", infrastructure.kafka().pid());
            ProcessCpu cpu = new ProcessCpu(pids, infrastructure.postgres().pid(), "bench JVM (receiver, producer)");
            PostgresServer postgres = infrastructure.postgres();
            try (Connection webhookDb = DriverManager.getConnection(postgres.jdbcUrl("webhook"), postgres.username(),
                    postgres.password());
                 KafkaProducer<String, String> producer = producer(infrastructure.kafka().bootstrapServers())) {
                double[] ratio = {Double.NaN};
                double perSecond = events > 0
                        ? throughput(results, new DeliveryThroughput(api, receiver, producer, webhookDb, cpu), vertx, receiver,
                                platform, partnerCount, events, concurrency, ratio)
                        : Double.NaN;
                double p99Ms = approvals > 0
                        ? new DeliveryLatency(api, receiver, webhookDb, infrastructure.kafka().bootstrapServers(), approvals,
                                pacingMs).run(results).p99Ms
                        : Double.NaN;
                System.out.println();
                System.out.printf("aim (issue 44): end to end at least 50 %% of the ceiling (same receiver and client alone, same"
                                + " concurrency and partners) and p99 under 10 ms from the approving call's response to receipt"
                                + " -> %.0f events/s = %.0f %% of the ceiling (%s), p99 %.1f ms (%s); %s%n",
                        perSecond, ratio[0], Double.isNaN(ratio[0]) ? "not measured" : ratio[0] >= 50 ? "met" : "missed", p99Ms,
                        Double.isNaN(p99Ms) ? "not measured" : p99Ms < 10 ? "met" : "missed", Machine.loadAverage());
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }

    /**
     * One warm-up round of as many events as measured (after a quarter of them the JIT was still
     * compiling webhook-service's hot paths: seconds of C2 compilation in a flight recording), then
     * {@link #ROUNDS} measured rounds, then the ceiling. Returns the median round's events/s. Kept as
     * {@code throughput.*} and {@code ceiling.*}; the headline: the median round's events/s, and its ratio to the ceiling.
     */
    private static double throughput(Results results, DeliveryThroughput throughput, Vertx vertx, Receiver receiver,
                                     BenchPlatform platform, int partnerCount, int events, int concurrency, double[] ratio)
            throws Exception {
        long webhookPid = platform.pid(PlatformService.WEBHOOK);
        Profile profile = Profile.requested() ? Profile.beforeWarmUp(platform) : null;
        System.out.printf("%nThroughput: %d partners, %d in flight at most (%d per partner), events published straight"
                + " onto care.events; %s%n", partnerCount, concurrency, Webhooks.MAX_IN_FLIGHT_PER_PARTNER, Machine.loadAverage());
        System.out.println("warm-up (JIT, pools):");
        DeliveryCeiling.run(vertx, receiver, events, concurrency).print("  ceiling");
        throughput.round("  webhook-service", partnerCount, events).print();
        System.out.println("measured:");
        // BENCH_JFR=<file>: a flight recording of webhook-service during the first measured round, to see
        // where its CPU goes (starting a recording costs some deoptimisation: that round is slower).
        String jfr = System.getenv("BENCH_JFR");
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i <= ROUNDS; i++) {
            if (jfr != null && i == 1) {
                Jcmd.run(webhookPid, "JFR.start", "name=bench", "settings=profile", "filename=" + jfr);
            }
            if (profile != null && i == 1) {
                profile.roundStarts();
            }
            DeliveryThroughput.Round round = throughput.round("webhook-service, round " + i, partnerCount, events);
            if (jfr != null && i == 1) {
                Jcmd.run(webhookPid, "JFR.stop", "name=bench");
            }
            round.print();
            if (profile != null && i == 1) {
                profile.stop(events);
            }
            round.record(results, "throughput.round" + i, "webhook-service, round " + i);
            rates.add(round.perSecond());
        }
        DeliveryCeiling.Result ceiling = DeliveryCeiling.run(vertx, receiver, events, concurrency);
        ceiling.print("ceiling: same receiver and client, no Kafka or database");
        double median = rates.stream().sorted().toList().get(rates.size() / 2);
        ceiling.record(results, "ceiling", "ceiling: same receiver and client, no Kafka or database");
        results.headline("throughput.perSecond", median, "events/s",
                "events from care.events to the receiver, " + partnerCount + " partners, median round");
        results.ceilingRatio("throughput.ratioToCeiling", 100 * median / ceiling.perSecond(),
                "webhook-service end to end / same receiver and client alone");
        results.aim("throughput.ratioToCeiling", "at least 50 %", 100 * median / ceiling.perSecond() >= 50);
        ratio[0] = 100 * median / ceiling.perSecond();
        System.out.printf("webhook-service end to end (median round) = %.0f %% of the ceiling (%.0f vs %.0f events/s); %s%n",
                100 * median / ceiling.perSecond(), median, ceiling.perSecond(), Machine.loadAverage());
        return median;
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
        producer.partitionsFor("care.events"); // metadata now, not inside the first timed round
        return producer;
    }
}

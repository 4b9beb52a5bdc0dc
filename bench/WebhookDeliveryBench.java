import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Issue 6, webhook-service: how fast events reach a partner's webhook receiver.
 *
 * <ol>
 * <li>Throughput: {@code partners} partners whose webhook URLs point at a fast receiver in this JVM
 *     (Vert.x, answering 200 at once), {@code events} envelopes published straight onto
 *     {@code care.events} with a plain Kafka producer (as the outbox relay does), timed from the first
 *     publish to the receipt of the last distinct {@code X-Webhook-Id}. One warm-up round, then
 *     {@link #ROUNDS} measured rounds (the median is the figure), each on partners of its own. Also per
 *     round: when the last attempt was recorded (the delivery's state persisted), the intake window, the
 *     attempts as webhook-service recorded them, and the CPU each process used.</li>
 * <li>Ceiling, in the same run: the same receiver driven by the same client (Vert.x HttpClient, the
 *     options of webhook-service's {@code Sender}, used the same way, the same bodies and headers) with
 *     as many requests in flight as the service allows for that many partners, without Kafka or the
 *     database; the ratio service / ceiling.</li>
 * <li>Latency, the real path at a modest rate: members and requests created through the gateway, each
 *     claimed, then approved one after another through the operator API (the first
 *     {@link #WARM_UP_APPROVALS} not counted); from the approving call's response to the receipt of its
 *     {@code item.approved} webhook, split at the envelope's Kafka timestamp (requests-service's commit
 *     and outbox relay, then webhook-service) and at the delivery row's {@code created_at}.</li>
 * </ol>
 *
 * <p>Starts its own platform on random loopback ports (as the other benches). Bounded: every wait has a
 * cap, and the run stops by itself.
 *
 * <p>Run: bench/webhook-delivery.sh [partners=20] [events=20000, 0 skips] [approvals=300, 0 skips]
 * [ms between approvals=50]; with {@code BENCH_JFR=/tmp/webhook.jfr} in the environment, a flight
 * recording (profile settings) of webhook-service during the first measured round is written there.
 */
public final class WebhookDeliveryBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newBuilder()
            .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    /** webhook-service's defaults: attempts in flight per partner and per replica. */
    private static final int MAX_IN_FLIGHT_PER_PARTNER = 8;
    private static final int MAX_IN_FLIGHT = 256;
    private static final String USER_AGENT = "Service-Webhook/1.0";
    private static final String DRUG_ID = "bench-webhook-sildenafil";
    private static final Duration ROUND_CAP = Duration.ofSeconds(240);
    private static final int ROUNDS = 3;
    /** Approvals made before the measured ones: the first calls through a cold path are not the figure. */
    private static final int WARM_UP_APPROVALS = 50;

    public static void main(String[] args) throws Exception {
        int partnerCount = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int approvals = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        long pacingMs = args.length > 3 ? Long.parseLong(args[3]) : 50;
        int concurrency = Math.min(MAX_IN_FLIGHT, partnerCount * MAX_IN_FLIGHT_PER_PARTNER);
        Path root = Path.of("").toAbsolutePath();
        String opsKey = "ops_bench_" + System.nanoTime();
        long began = System.nanoTime();
        Vertx vertx = Vertx.vertx();
        try (Infrastructure infrastructure = Infrastructure.startEphemeral();
             Platform platform = Platform.start(infrastructure, new PlatformOptions(root,
                     Files.createTempDirectory("bench-logs-"), PlatformOptions.randomPorts(),
                     PlatformOptions.DEFAULT_JVM_OPTIONS, Map.of("OPS_API_KEY", opsKey), Duration.ofSeconds(180)))) {
            Receiver receiver = Receiver.start(vertx);
            System.out.printf("platform up in %.0f s; receiver on 127.0.0.1:%d (Vert.x, answers 200 at once); %d cores%n",
                    (System.nanoTime() - began) / 1e9, receiver.port(), Runtime.getRuntime().availableProcessors());
            URI gateway = platform.url(PlatformService.GATEWAY);
            Api api = new Api(gateway, opsKey);
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("webhook-service", platform.pid(PlatformService.WEBHOOK));
            pids.put("kafka", infrastructure.kafka().pid());
            Cpu cpu = new Cpu(pids, infrastructure.postgres().pid());
            PostgresServer postgres = infrastructure.postgres();
            try (Connection webhookDb = DriverManager.getConnection(postgres.jdbcUrl("webhook"), postgres.username(),
                    postgres.password());
                 KafkaProducer<String, String> producer = producer(infrastructure.kafka().bootstrapServers())) {
                double perSecond = events > 0
                        ? throughput(new Throughput(api, receiver, producer, webhookDb, cpu), vertx, receiver,
                                platform.pid(PlatformService.WEBHOOK), partnerCount, events, concurrency)
                        : Double.NaN;
                double p99Ms = approvals > 0
                        ? new Latency(api, receiver, webhookDb, infrastructure.kafka().bootstrapServers(), approvals, pacingMs).run().p99Ms
                        : Double.NaN;
                System.out.println();
                System.out.printf("aim: at least 2,000 events/s end to end and p99 under 250 ms from the approving call's response"
                                + " to receipt -> %.0f events/s (%s), p99 %.0f ms (%s); %s%n",
                        perSecond, Double.isNaN(perSecond) ? "not measured" : perSecond >= 2000 ? "met" : "missed", p99Ms,
                        Double.isNaN(p99Ms) ? "not measured" : p99Ms < 250 ? "met" : "missed", loadAverage());
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
    }

    /**
     * One warm-up round of as many events as measured (after a quarter of them the JIT was still
     * compiling webhook-service's hot paths: seconds of C2 compilation in a flight recording), then
     * {@link #ROUNDS} measured rounds, then the ceiling. Returns the median round's events/s.
     */
    private static double throughput(Throughput throughput, Vertx vertx, Receiver receiver, long webhookPid,
                                     int partnerCount, int events, int concurrency) throws Exception {
        System.out.printf("%nThroughput: %d partners, %d in flight at most (%d per partner), events published straight"
                + " onto care.events; %s%n", partnerCount, concurrency, MAX_IN_FLIGHT_PER_PARTNER, loadAverage());
        System.out.println("warm-up (JIT, pools):");
        Ceiling.run(vertx, receiver, events, concurrency).print("  ceiling");
        throughput.round("  webhook-service", partnerCount, events).print();
        System.out.println("measured:");
        // BENCH_JFR=<file>: a flight recording of webhook-service during the first measured round, to see
        // where its CPU goes (starting a recording costs some deoptimisation: that round is slower).
        String jfr = System.getenv("BENCH_JFR");
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i <= ROUNDS; i++) {
            if (jfr != null && i == 1) {
                jcmd(webhookPid, "JFR.start", "name=bench", "settings=profile", "filename=" + jfr);
            }
            Round round = throughput.round("webhook-service, round " + i, partnerCount, events);
            if (jfr != null && i == 1) {
                jcmd(webhookPid, "JFR.stop", "name=bench");
            }
            round.print();
            rates.add(round.perSecond());
        }
        Ceiling.Result ceiling = Ceiling.run(vertx, receiver, events, concurrency);
        ceiling.print("ceiling: same receiver and client, no Kafka or database");
        double median = rates.stream().sorted().toList().get(rates.size() / 2);
        System.out.printf("webhook-service end to end (median round) = %.0f %% of the ceiling (%.0f vs %.0f events/s); %s%n",
                100 * median / ceiling.perSecond(), median, ceiling.perSecond(), loadAverage());
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

    // ------------------------------------------------------------------ receiver

    /**
     * The partners' webhook receiver: two Vert.x servers on one port (one per event loop used), each
     * POST answered 200 as soon as its body is in. Counts distinct {@code X-Webhook-Id}s and POSTs per
     * round, notes when the round's target was reached, and, on {@code /hooks/latency}, when each
     * request's {@code item.approved} arrived (nanoTime and wall clock) and whether it was signed right.
     */
    static final class Receiver {

        record Arrival(long nanos, long millis, boolean signed) {
        }

        private volatile int port;
        private final AtomicLong posts = new AtomicLong();
        private volatile Map<String, Boolean> ids = new ConcurrentHashMap<>();
        private volatile int target = Integer.MAX_VALUE;
        private final AtomicLong reachedAt = new AtomicLong();
        final Map<String, Arrival> approved = new ConcurrentHashMap<>();
        final AtomicInteger latencyPosts = new AtomicInteger();
        final Map<String, Boolean> latencyIds = new ConcurrentHashMap<>();
        volatile String latencySecret;

        static Receiver start(Vertx vertx) throws Exception {
            Receiver receiver = new Receiver();
            receiver.port = FreePorts.next();
            // Two servers on one port: Vert.x spreads the connections over both servers' event loops.
            for (int i = 0; i < 2; i++) {
                vertx.createHttpServer().requestHandler(receiver::handle)
                        .listen(receiver.port, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
            }
            return receiver;
        }

        int port() {
            return port;
        }

        String url(String path) {
            return "http://127.0.0.1:" + port + path;
        }

        private void handle(HttpServerRequest request) {
            request.body().onComplete(body -> {
                long nanos = System.nanoTime();
                record(request, body.succeeded() ? body.result() : Buffer.buffer(), nanos);
                request.response().setStatusCode(200).end();
            });
        }

        private void record(HttpServerRequest request, Buffer body, long nanos) {
            posts.incrementAndGet();
            String id = request.getHeader("X-Webhook-Id");
            if (id != null && ids.putIfAbsent(id, Boolean.TRUE) == null && ids.size() >= target) {
                reachedAt.compareAndSet(0, nanos);
            }
            if (request.path().equals("/hooks/latency")) {
                latencyPosts.incrementAndGet();
                if (id != null) {
                    latencyIds.put(id, Boolean.TRUE);
                }
                try {
                    JsonNode json = JSON.readTree(body.getBytes());
                    if ("item.approved".equals(json.path("event").asText())) {
                        boolean signed = signed(request, body.getBytes());
                        approved.putIfAbsent(json.path("requestId").asText(), new Arrival(nanos, System.currentTimeMillis(), signed));
                    }
                } catch (Exception e) {
                    System.out.println("receiver: unreadable body on /hooks/latency (" + e.getClass().getSimpleName() + ")");
                }
            }
        }

        private boolean signed(HttpServerRequest request, byte[] body) {
            try {
                String timestamp = request.getHeader("X-Webhook-Timestamp");
                String expected = signature(latencySecret, timestamp, body);
                String actual = request.getHeader("X-Webhook-Signature");
                return actual != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                        actual.getBytes(StandardCharsets.UTF_8));
            } catch (Exception e) {
                return false;
            }
        }

        void startRound(int expected) {
            ids = new ConcurrentHashMap<>(expected * 2);
            posts.set(0);
            reachedAt.set(0);
            target = expected;
        }

        int distinct() {
            return ids.size();
        }

        long posts() {
            return posts.get();
        }

        long reachedAt() {
            return reachedAt.get();
        }
    }

    static String signature(String secret, String timestamp, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    /** A webhook payload as requests-service writes one for an approved item (with a patient name). */
    static String itemApproved(String requestId) {
        return "{\"event\":\"item.approved\",\"requestId\":\"" + requestId + "\",\"itemId\":\"i-1\","
                + "\"status\":\"approved\",\"patientName\":\"Zoë Ångström\",\"prescriptionName\":\"Drug 1.50\","
                + "\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
    }

    // ------------------------------------------------------------------ throughput through the service

    record Round(String name, int events, double publishSeconds, double receivedSeconds, double recordedSeconds,
                 long posts, int distinct, double intakeSeconds, String attempts, String cpu) {

        double perSecond() {
            return events / receivedSeconds;
        }

        void print() {
            System.out.printf("%-34s %7.0f events/s   (%d events: published in %.1f s, all received after %.1f s,"
                            + " all recorded after %.1f s; %d POSTs for %d distinct ids)%n",
                    name, perSecond(), events, publishSeconds, receivedSeconds, recordedSeconds, posts, distinct);
            System.out.printf("%-34s intake (first to last delivery row stored) %.1f s = %.0f events/s%n", "",
                    intakeSeconds, events / Math.max(intakeSeconds, 0.001));
            System.out.printf("%-34s attempts: %s%n", "", attempts);
            System.out.printf("%-34s CPU: %s%n", "", cpu);
        }
    }

    static final class Throughput {
        private final Api api;
        private final Receiver receiver;
        private final KafkaProducer<String, String> producer;
        private final Connection db;
        private final Cpu cpu;
        private int rounds;

        Throughput(Api api, Receiver receiver, KafkaProducer<String, String> producer, Connection db, Cpu cpu) {
            this.api = api;
            this.receiver = receiver;
            this.producer = producer;
            this.db = db;
            this.cpu = cpu;
        }

        /** One round on partners of its own, so its rows are told apart by partner. */
        Round round(String name, int partnerCount, int events) throws Exception {
            int round = ++rounds;
            List<String> partners = new ArrayList<>();
            for (int i = 0; i < partnerCount; i++) {
                String partnerId = api.partner("Bench Webhooks " + round + "." + i).path("partner").path("id").asText();
                api.send("PUT", "/ops/v1/partners/" + partnerId + "/webhook",
                        JSON.writeValueAsString(Map.of("url", receiver.url("/hooks/load/" + i))), 200);
                partners.add(partnerId);
            }
            List<String> envelopes = new ArrayList<>(events);
            List<String> keys = new ArrayList<>(events);
            for (int i = 0; i < events; i++) {
                String requestId = UUID.randomUUID().toString();
                keys.add(requestId);
                envelopes.add("{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"item.approved\",\"partnerId\":\""
                        + partners.get(i % partnerCount) + "\",\"occurredAt\":\"2026-11-21T09:30:00.000Z\","
                        + "\"subject\":{\"requestId\":\"" + requestId + "\"},\"data\":{\"requestId\":\"" + requestId
                        + "\",\"status\":\"approved\"},\"webhook\":" + itemApproved(requestId) + "}");
            }
            receiver.startRound(events);
            Cpu.Snapshot before = cpu.snapshot();
            long started = System.nanoTime();
            for (int i = 0; i < events; i++) {
                producer.send(new ProducerRecord<>("care.events", keys.get(i), envelopes.get(i)));
            }
            producer.flush();
            long published = System.nanoTime();
            boolean all = waitUntil(ROUND_CAP, () -> receiver.distinct() >= events);
            long received = all ? receiver.reachedAt() : System.nanoTime();
            Cpu.Snapshot after = cpu.snapshot();
            String[] in = partners.toArray(new String[0]);
            boolean recorded = waitUntil(Duration.ofSeconds(60), () -> count(db,
                    "SELECT count(*) FROM deliveries WHERE status = 'delivered' AND partner_id = ANY (?)", in) >= events);
            long recordedAt = System.nanoTime();
            if (!all || !recorded) {
                System.out.printf("  !! %s: %d of %d distinct ids received, %s recorded delivered within the caps%n", name,
                        receiver.distinct(), events, recorded ? "all" : "not all");
            }
            return new Round(name, events, (published - started) / 1e9, (received - started) / 1e9,
                    (recordedAt - started) / 1e9, receiver.posts(), receiver.distinct(), intakeSeconds(in),
                    attempts(db, in), cpu.describe(before, after, events));
        }

        private double intakeSeconds(String[] partners) throws Exception {
            try (PreparedStatement st = db.prepareStatement("SELECT extract(epoch FROM max(created_at) - min(created_at))"
                    + " FROM deliveries WHERE partner_id = ANY (?)")) {
                st.setArray(1, db.createArrayOf("text", partners));
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    return rs.getDouble(1);
                }
            }
        }

    }

    /** Attempts as webhook-service recorded them: by outcome, with their recorded duration. */
    static String attempts(Connection db, String[] partners) throws Exception {
        StringBuilder out = new StringBuilder();
        try (PreparedStatement st = db.prepareStatement("SELECT coalesce(a.http_status::text, a.error), count(*),"
                + " avg(a.duration_ms), percentile_disc(0.5) WITHIN GROUP (ORDER BY a.duration_ms),"
                + " percentile_disc(0.99) WITHIN GROUP (ORDER BY a.duration_ms), max(a.duration_ms)"
                + " FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.partner_id = ANY (?)"
                + " GROUP BY 1 ORDER BY 2 DESC")) {
            st.setArray(1, db.createArrayOf("text", partners));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.append(String.format("%s%s x%d (duration mean %.1f ms, p50 %d, p99 %d, max %d)",
                            out.length() == 0 ? "" : "; ", rs.getString(1), rs.getLong(2), rs.getDouble(3),
                            rs.getLong(4), rs.getLong(5), rs.getLong(6)));
                }
            }
        }
        return out.toString();
    }

    private static long count(Connection db, String sql, String[] partners) {
        try (PreparedStatement st = db.prepareStatement(sql)) {
            st.setArray(1, db.createArrayOf("text", partners));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ ceiling: the client alone

    /**
     * The same receiver driven by the client webhook-service sends with: a Vert.x HttpClient with
     * {@code Sender}'s options (keep-alive with its idle timeout, pool sized to the replica's bound,
     * connect timeout, no compression), used as {@code Sender} uses it (every request on one event-loop
     * context, the body read to its end without a handler), the same request options (server address
     * given, Host, no redirects) and headers, bodies of the same shape signed the same way;
     * {@code concurrency} requests in flight, each completion starting the next.
     */
    static final class Ceiling {

        record Result(int requests, long failed, String firstFailure, double seconds, Histogram latencies) {
            double perSecond() {
                return requests / seconds;
            }

            void print(String name) {
                System.out.printf("%-34s %7.0f events/s   (%d POSTs in %.1f s, %d failed%s; each p50 %.1f ms, p99 %.1f ms)%n",
                        name, perSecond(), requests, seconds, failed, failed == 0 ? "" : ", first: " + firstFailure,
                        latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0);
            }
        }

        static Result run(Vertx vertx, Receiver receiver, int requests, int concurrency) throws Exception {
            HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                    .setMaxPoolSize(MAX_IN_FLIGHT)
                    .setConnectTimeout(10_000)
                    .setForceSni(true)
                    .setVerifyHost(true)
                    .setTryUseCompression(false)
                    .setKeepAlive(true)
                    .setKeepAliveTimeout(2));
            String secret = HexFormat.of().formatHex(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8)).substring(0, 64);
            String timestamp = Long.toString(Instant.now().getEpochSecond());
            String[] bodies = new String[requests];
            String[] signatures = new String[requests];
            String[] ids = new String[requests];
            for (int i = 0; i < requests; i++) {
                bodies[i] = itemApproved(UUID.randomUUID().toString());
                signatures[i] = signature(secret, timestamp, bodies[i].getBytes(StandardCharsets.UTF_8));
                ids[i] = UUID.randomUUID().toString();
            }
            receiver.startRound(requests);
            Histogram latencies = new Histogram(60_000_000L, 3);
            AtomicInteger next = new AtomicInteger();
            AtomicLong failed = new AtomicLong();
            String[] firstFailure = new String[1];
            CountDownLatch done = new CountDownLatch(requests);
            long started = System.nanoTime();
            Runnable[] sendNext = new Runnable[1];
            sendNext[0] = () -> {
                int i = next.getAndIncrement();
                if (i >= requests) {
                    return;
                }
                long sent = System.nanoTime();
                RequestOptions options = new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setServer(SocketAddress.inetSocketAddress(receiver.port(), "127.0.0.1"))
                        .setHost("127.0.0.1")
                        .setPort(receiver.port())
                        .setSsl(false)
                        .setURI("/hooks/ceiling")
                        .setFollowRedirects(false)
                        .setConnectTimeout(10_000)
                        .putHeader("Content-Type", "application/json")
                        .putHeader("User-Agent", USER_AGENT)
                        .putHeader("X-Webhook-Timestamp", timestamp)
                        .putHeader("X-Webhook-Signature", signatures[i])
                        .putHeader("X-Webhook-Id", ids[i]);
                client.request(options)
                        .compose(request -> request.send(Buffer.buffer(bodies[i])))
                        .compose(response -> response.end().map(ignored -> response.statusCode()))
                        .onComplete(answer -> {
                            synchronized (latencies) {
                                latencies.recordValue(Math.min(60_000_000L, Math.max(1, (System.nanoTime() - sent) / 1000)));
                            }
                            if (answer.failed() || answer.result() / 100 != 2) {
                                if (failed.incrementAndGet() == 1) {
                                    firstFailure[0] = answer.failed() ? answer.cause().getClass().getSimpleName()
                                            : "HTTP " + answer.result();
                                }
                            }
                            done.countDown();
                            sendNext[0].run();
                        });
            };
            Context context = ((VertxInternal) vertx).createEventLoopContext();
            context.runOnContext(ignored -> {
                for (int i = 0; i < concurrency; i++) {
                    sendNext[0].run();
                }
            });
            if (!done.await(ROUND_CAP.toSeconds(), TimeUnit.SECONDS)) {
                System.out.printf("  !! ceiling: %d of %d answered within %d s%n", requests - done.getCount(), requests,
                        ROUND_CAP.toSeconds());
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return new Result(requests, failed.get(), firstFailure[0], seconds, latencies);
        }
    }

    // ------------------------------------------------------------------ latency through the whole platform

    static final class Latency {
        private final Api api;
        private final Receiver receiver;
        private final Connection db;
        private final String bootstrap;
        private final int approvals;
        private final long pacingMs;
        double p99Ms = Double.NaN;

        Latency(Api api, Receiver receiver, Connection db, String bootstrap, int approvals, long pacingMs) {
            this.api = api;
            this.receiver = receiver;
            this.db = db;
            this.bootstrap = bootstrap;
            this.approvals = approvals;
            this.pacingMs = pacingMs;
        }

        record Prepared(String requestId, String itemId) {
        }

        Latency run() throws Exception {
            JsonNode partner = api.partner("Bench Webhooks Latency");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            receiver.latencySecret = api.send("PUT", "/ops/v1/partners/" + partnerId + "/webhook",
                    JSON.writeValueAsString(Map.of("url", receiver.url("/hooks/latency"))), 200).path("secret").asText();
            api.send("PUT", "/ops/v1/drugs/" + DRUG_ID, """
                    {"name": "Sildenafil (bench)", "classification": "non-controlled",
                     "skus": [{"label": "50 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""", 200);
            String prescriberId = api.send("POST", "/ops/v1/prescribers", JSON.writeValueAsString(Map.of("name", "Dr Bench",
                    "email", "bench." + UUID.randomUUID() + "@clinic.example")), 201).path("prescriber").path("id").asText();

            long preparing = System.nanoTime();
            List<Prepared> all = prepare(apiKey, prescriberId, approvals + WARM_UP_APPROVALS);
            List<Prepared> warmUp = all.subList(0, WARM_UP_APPROVALS);
            List<Prepared> prepared = all.subList(WARM_UP_APPROVALS, all.size());
            System.out.printf("%nLatency: %d requests created through the gateway (member inline, one item) and claimed in %.0f s;"
                            + " approving them one after another, one every %d ms at most, the first %d not counted (warm-up);"
                            + " %s%n", all.size(), (System.nanoTime() - preparing) / 1e9, pacingMs, WARM_UP_APPROVALS, loadAverage());

            try (KafkaTap tap = KafkaTap.start(bootstrap)) {
                Map<String, long[]> responses = new LinkedHashMap<>(); // requestId -> {nanos, millis}
                Histogram calls = new Histogram(60_000_000L, 3);
                String body = JSON.writeValueAsString(Map.of("prescriberId", prescriberId, "prescription", Map.of(
                        "quantity", 8, "daysSupply", 30, "directions", "One before activity", "refills", 3,
                        "dispenseAsWritten", false)));
                for (Prepared p : warmUp) {
                    api.send("POST", "/ops/v1/requests/" + p.requestId() + "/items/" + p.itemId() + "/approve", body, 200);
                    Thread.sleep(pacingMs);
                }
                Thread.sleep(1000);
                for (Prepared p : prepared) {
                    long start = System.nanoTime();
                    api.send("POST", "/ops/v1/requests/" + p.requestId() + "/items/" + p.itemId() + "/approve", body, 200);
                    long answered = System.nanoTime();
                    responses.put(p.requestId(), new long[] {answered, System.currentTimeMillis()});
                    calls.recordValue(Math.max(1, (answered - start) / 1000));
                    long rest = pacingMs - (System.nanoTime() - start) / 1_000_000;
                    if (rest > 0) {
                        Thread.sleep(rest);
                    }
                }
                waitUntil(Duration.ofSeconds(30), () -> receiver.approved.keySet().containsAll(responses.keySet()));
                Thread.sleep(500); // the tap reads the last envelopes too
                report(responses, calls, tap, intakeTimes(partnerId));
            }
            System.out.printf("attempts to the latency partner (warm-up included): %s; %d POSTs for %d distinct ids%n",
                    attempts(db, new String[] {partnerId}), receiver.latencyPosts.get(), receiver.latencyIds.size());
            return this;
        }

        private List<Prepared> prepare(String apiKey, String prescriberId, int count) throws Exception {
            List<Prepared> prepared = java.util.Collections.synchronizedList(new ArrayList<>());
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<java.util.concurrent.Future<?>> work = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    int n = i;
                    work.add(pool.submit(() -> {
                        String requestId = api.as(apiKey, "POST", "/v1/requests", """
                                {"caseNotes": "bench", "items": [{"drugId": "%s", "dosage": "50 mg"}],
                                 "member": {"firstName": "Mary", "lastName": "Bench", "email": "mary.%d.%s@example.com",
                                            "dateOfBirth": "1980-04-09", "state": "VA",
                                            "address": {"street1": "1 Main St", "city": "Hampton", "state": "VA", "zipCode": "23665"}}}"""
                                .formatted(DRUG_ID, n, UUID.randomUUID()), 201).path("requestId").asText();
                        String itemId = api.as(apiKey, "GET", "/v1/requests/" + requestId, null, 200)
                                .path("lineItems").path(0).path("itemId").asText();
                        api.send("POST", "/ops/v1/requests/" + requestId + "/claim",
                                JSON.writeValueAsString(Map.of("prescriberId", prescriberId)), 200);
                        prepared.add(new Prepared(requestId, itemId));
                        return null;
                    }));
                }
                for (var w : work) {
                    w.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            return new ArrayList<>(prepared);
        }

        /** Request id -> the item.approved delivery's created_at (ms): taken by the intake just before its insert. */
        private Map<String, Long> intakeTimes(String partnerId) throws Exception {
            Map<String, Long> times = new java.util.HashMap<>();
            try (PreparedStatement st = db.prepareStatement("SELECT body::json->>'requestId', created_at FROM deliveries"
                    + " WHERE partner_id = ? AND event = 'item.approved'")) {
                st.setString(1, partnerId);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        times.put(rs.getString(1), rs.getTimestamp(2).getTime());
                    }
                }
            }
            return times;
        }

        private void report(Map<String, long[]> responses, Histogram calls, KafkaTap tap, Map<String, Long> intake) {
            List<Long> total = new ArrayList<>();
            List<Long> outbox = new ArrayList<>();
            List<Long> webhook = new ArrayList<>();
            List<Long> consumed = new ArrayList<>();
            List<Long> plain = new ArrayList<>();
            List<Long> sent = new ArrayList<>();
            int missing = 0;
            int before = 0;
            int unsigned = 0;
            for (Map.Entry<String, long[]> response : responses.entrySet()) {
                Receiver.Arrival arrival = receiver.approved.get(response.getKey());
                if (arrival == null) {
                    missing++;
                    continue;
                }
                if (!arrival.signed()) {
                    unsigned++;
                }
                long micros = (arrival.nanos() - response.getValue()[0]) / 1000;
                if (micros < 0) {
                    before++; // the webhook outran the approving call's response on its way back to the client
                }
                total.add(micros);
                Long onKafka = tap.created.get(response.getKey());
                Long stored = intake.get(response.getKey());
                if (onKafka != null) {
                    outbox.add((onKafka - response.getValue()[1]) * 1000);
                    webhook.add((arrival.millis() - onKafka) * 1000);
                    Long tapped = tap.seen.get(response.getKey());
                    if (tapped != null) {
                        plain.add((tapped - onKafka) * 1000);
                    }
                    if (stored != null) {
                        consumed.add((stored - onKafka) * 1000);
                        sent.add((arrival.millis() - stored) * 1000);
                    }
                }
            }
            System.out.printf("approving call (through the gateway): p50 %.1f ms, p99 %.1f ms%n",
                    calls.getValueAtPercentile(50) / 1000.0, calls.getValueAtPercentile(99) / 1000.0);
            System.out.printf("approve response -> item.approved received: %s over %d approvals (%d not received within 30 s,"
                    + " %d received before the response, %d with a wrong signature)%n", percentiles(total), total.size(),
                    missing, before, unsigned);
            System.out.printf("  of which response -> on Kafka (requests-service: commit, outbox relay poll, publish): %s%n",
                    percentiles(outbox));
            System.out.printf("  of which on Kafka -> received (webhook-service: consume, store, sign, POST): %s%n",
                    percentiles(webhook));
            System.out.printf("    on Kafka -> intake about to insert (broker, consumer fetch, batch to a worker, parse, sign): %s%n",
                    percentiles(consumed));
            System.out.printf("      (for comparison, on Kafka -> polled by a plain consumer in the bench JVM: %s)%n",
                    percentiles(plain));
            System.out.printf("    intake -> received (insert, commit, hand-off, DNS and SSRF check, POST): %s%n",
                    percentiles(sent));
            System.out.printf("  (split at the envelope's Kafka timestamp, millisecond wall clock; %d of %d envelopes seen on"
                    + " care.events)%n", outbox.size(), total.size());
            p99Ms = total.isEmpty() ? Double.NaN : percentile(total, 99) / 1000.0;
        }
    }

    /** Reads care.events from its end, noting each item.approved envelope's Kafka timestamp by request id. */
    static final class KafkaTap implements AutoCloseable {
        final Map<String, Long> created = new ConcurrentHashMap<>();
        /** When this plain consumer had the record: what the broker and a consumer's fetch cost alone. */
        final Map<String, Long> seen = new ConcurrentHashMap<>();
        private final KafkaConsumer<String, String> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        private KafkaTap(KafkaConsumer<String, String> consumer) {
            this.consumer = consumer;
            this.thread = new Thread(this::loop, "bench-kafka-tap");
        }

        static KafkaTap start(String bootstrap) {
            Properties properties = new Properties();
            properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
            List<TopicPartition> partitions = consumer.partitionsFor("care.events").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position); // resolve the end now, before the first approval
            KafkaTap tap = new KafkaTap(consumer);
            tap.thread.setDaemon(true);
            tap.thread.start();
            return tap;
        }

        private void loop() {
            while (running) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.currentTimeMillis();
                    try {
                        JsonNode envelope = JSON.readTree(record.value());
                        if ("item.approved".equals(envelope.path("type").asText())) {
                            String requestId = envelope.path("subject").path("requestId").asText();
                            created.putIfAbsent(requestId, record.timestamp());
                            seen.putIfAbsent(requestId, now);
                        }
                    } catch (Exception e) {
                        // not an envelope: not ours
                    }
                }
            }
            consumer.close();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(5000);
        }
    }

    private static String percentiles(List<Long> micros) {
        if (micros.isEmpty()) {
            return "no samples";
        }
        return String.format("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms", percentile(micros, 50) / 1000.0,
                percentile(micros, 90) / 1000.0, percentile(micros, 99) / 1000.0, percentile(micros, 100) / 1000.0);
    }

    /** Nearest rank; values may be negative (the split at a wall-clock timestamp). */
    private static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return 0;
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    // ------------------------------------------------------------------ operator and partner API

    static final class Api {
        private final URI gateway;
        private final String opsKey;

        Api(URI gateway, String opsKey) {
            this.gateway = gateway;
            this.opsKey = opsKey;
        }

        JsonNode partner(String name) throws Exception {
            return send("POST", "/ops/v1/partners", JSON.writeValueAsString(Map.of("name", name)), 201);
        }

        JsonNode send(String method, String path, String body, int expected) throws Exception {
            return call(method, path, body, expected, "x-ops-key", opsKey);
        }

        JsonNode as(String apiKey, String method, String path, String body, int expected) throws Exception {
            return call(method, path, body, expected, "x-api-key", apiKey);
        }

        private JsonNode call(String method, String path, String body, int expected, String header, String value)
                throws Exception {
            HttpRequest.Builder builder = HttpRequest.newBuilder(gateway.resolve(path)).timeout(Duration.ofSeconds(15))
                    .header(header, value);
            if (body != null) {
                builder.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
            } else {
                builder.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expected) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + " " + response.body());
            }
            return JSON.readTree(response.body());
        }
    }

    // ------------------------------------------------------------------ CPU accounting

    /**
     * CPU time of the processes that matter, from /proc (clock ticks of 10 ms): where the 2 cores went
     * during a round. PostgreSQL is the postmaster, its live backends and its reaped children.
     */
    static final class Cpu {
        record Snapshot(long machineBusy, long machineTotal, Map<String, long[]> ticks) {
        }

        private final Map<String, Long> pids;
        private final long postgresPid;

        Cpu(Map<String, Long> pids, long postgresPid) {
            this.pids = new LinkedHashMap<>(pids);
            this.postgresPid = postgresPid;
        }

        Snapshot snapshot() {
            long busy = 0;
            long total = 0;
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                for (int i = 1; i < f.length && i <= 8; i++) {
                    long v = Long.parseLong(f[i]);
                    total += v;
                    if (i != 4 && i != 5) { // idle, iowait
                        busy += v;
                    }
                }
            } catch (Exception e) {
                // no /proc: figures stay 0
            }
            Map<String, long[]> ticks = new LinkedHashMap<>();
            pids.forEach((name, pid) -> ticks.put(name, ticks(pid, false)));
            long[] pg = ticks(postgresPid, true);
            for (ProcessHandle child : ProcessHandle.of(postgresPid).map(p -> p.descendants().toList()).orElse(List.of())) {
                long[] t = ticks(child.pid(), false);
                pg[0] += t[0];
                pg[1] += t[1];
            }
            ticks.put("postgresql", pg);
            ticks.put("bench JVM (receiver, producer)", ticks(ProcessHandle.current().pid(), false));
            return new Snapshot(busy, total, ticks);
        }

        /** User and system clock ticks of a process (with its reaped children for the postmaster). */
        private static long[] ticks(long pid, boolean withChildren) {
            if (pid <= 0) {
                return new long[2];
            }
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // fields after the name: state is f[0]; utime f[11], stime f[12], cutime f[13], cstime f[14]
                long user = Long.parseLong(f[11]) + (withChildren ? Long.parseLong(f[13]) : 0);
                long system = Long.parseLong(f[12]) + (withChildren ? Long.parseLong(f[14]) : 0);
                return new long[] {user, system};
            } catch (Exception e) {
                return new long[2];
            }
        }

        String describe(Snapshot before, Snapshot after, int events) {
            double cores = Runtime.getRuntime().availableProcessors();
            double machine = 100.0 * (after.machineBusy() - before.machineBusy())
                    / Math.max(1, after.machineTotal() - before.machineTotal());
            StringBuilder out = new StringBuilder(String.format("machine %.0f %% busy of %.0f cores", machine, cores));
            after.ticks().forEach((name, ticks) -> {
                long[] was = before.ticks().getOrDefault(name, new long[2]);
                long user = ticks[0] - was[0];
                long system = ticks[1] - was[1];
                out.append(String.format("; %s %.1f s (%.2f ms/event, %.0f %% system)", name, (user + system) / 100.0,
                        (user + system) * 10.0 / events, 100.0 * system / Math.max(1, user + system)));
            });
            return out.toString();
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void jcmd(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            System.out.println("  (jcmd " + String.join(" ", command) + " failed)");
        }
    }

    private static boolean waitUntil(Duration cap, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + cap.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(5);
        }
        return condition.getAsBoolean();
    }

    /** The machine's load when measuring: these figures are only comparable with a quiet machine's. */
    private static String loadAverage() {
        try {
            return "load average " + String.join(" ", Arrays.asList(Files.readString(Path.of("/proc/loadavg")).split(" ")).subList(0, 3));
        } catch (Exception e) {
            return "load average unknown";
        }
    }
}

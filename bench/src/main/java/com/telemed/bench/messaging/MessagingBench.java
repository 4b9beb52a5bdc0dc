package com.telemed.bench.messaging;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.HeapSampler;
import com.telemed.bench.support.Jcmd;
import com.telemed.bench.support.LoadRun;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.ServiceLog;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Issue 16, messaging-service through the gateway:
 *
 * <ol>
 * <li>Posting messages: {@code POST /v1/messages/conversations/:id/messages}, {@link #POST_CLIENTS}
 *     clients, each in a conversation of its own, then all in one shared conversation (posts to one
 *     conversation wait for each other on its row lock) ({@link MessagePosts}).</li>
 * <li>Attachments: {@link #ATTACHMENT_CLIENTS} clients each uploading a 10 MB file and downloading it
 *     back by its link, bytes compared by SHA-256; then uploads alone ({@link AttachmentRoundTrips}).</li>
 * <li>The ceiling: the same 10 MB straight into the same PostgreSQL, one {@code INSERT} of the bytes per
 *     call over JDBC, as many clients, as long ({@link AttachmentCeiling}); the ratio of the two.</li>
 * </ol>
 *
 * <p>During every measured round, messaging-service's heap (and the gateway's, for context) is sampled
 * every 200 ms ({@link HeapSampler}: jstat) and its peak printed beside the maximum heap, with the CPU
 * each process used and the WARN and ERROR lines messaging-service logged; its live heap (class
 * histograms) at rest and with the attachment round trips in flight, in a round of its own. Every post
 * queues a mail to the prescriber: when an SMTP server listens, the attachments wait until the relay
 * sent them (at most {@link #MAIL_DRAIN_CAP}), so that sending does not share their CPU; at the end,
 * whether the mails were sent ({@link MailState}).
 *
 * <p>Starts its own platform on random loopback ports (as the other benches), creates a partner, a
 * prescriber, members and their conversations through the gateway ({@link MessagingData}). Bounded:
 * every round has a fixed length and every call a timeout.
 *
 * <p>Run: bench/messaging.sh [seconds per measured round=20] [seconds of posting warm-up=30] [seconds of attachment
 * warm-up=10] (the ceiling's warm-up: half the attachments', at most 5 s). The posts' warm-up is the longer: after
 * 10 s (2,000 posts) the gateway and the service still spent twice the CPU per post of a warm round.
 */
public final class MessagingBench {

    static final int POST_CLIENTS = 16;
    static final int ATTACHMENT_CLIENTS = 8;
    private static final Duration HEAP_SAMPLE_EVERY = Duration.ofMillis(200);
    private static final double MIB = 1024.0 * 1024.0;
    private static final Duration LIVE_HEAP_ROUND = Duration.ofSeconds(12);
    /** How long the relay may take to send the posts' mails before the attachments are measured (only with an SMTP server). */
    private static final Duration MAIL_DRAIN_CAP = Duration.ofSeconds(180);

    /** A measured round's result, with messaging-service's and the gateway's heap peaks, the CPU used and the service's log. */
    record Measured<T>(T result, HeapSampler.Peak heap, HeapSampler.Peak gatewayHeap, String cpu, ServiceLog.Summary log) {
        void print() {
            System.out.println("   messaging-service heap: " + heap.line());
            System.out.println("   gateway heap:           " + gatewayHeap.line());
            System.out.println("   CPU: " + cpu);
            System.out.println("   messaging-service log: " + log.describe(5));
        }
    }

    interface Load<T> {
        T run() throws Exception;
    }

    private final long messagingPid;
    private final long gatewayPid;
    private final ProcessCpu cpu;
    private final Path messagingLog;

    private MessagingBench(long messagingPid, long gatewayPid, ProcessCpu cpu, Path messagingLog) {
        this.messagingPid = messagingPid;
        this.gatewayPid = gatewayPid;
        this.cpu = cpu;
        this.messagingLog = messagingLog;
    }

    public static void main(String[] args) throws Exception {
        Duration round = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 20);
        Duration postsWarmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 30);
        Duration attachmentsWarmUp = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 10);
        Results results = Results.open("messaging", args).parameter("roundSeconds", round)
                .parameter("postsWarmUpSeconds", postsWarmUp).parameter("attachmentsWarmUpSeconds", attachmentsWarmUp)
                .parameter("postClients", POST_CLIENTS).parameter("attachmentClients", ATTACHMENT_CLIENTS)
                .parameter("fileBytes", AttachmentRoundTrips.FILE_BYTES);
        long began = System.nanoTime();
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s; service logs in %s; %d cores%n", (System.nanoTime() - began) / 1e9,
                    platform.logDirectory(), Machine.cores());
            URI gateway = platform.url(PlatformService.GATEWAY);
            GatewayApi api = platform.api();
            MessagingData data = MessagingData.create(api, POST_CLIENTS);
            long messagingPid = platform.pid(PlatformService.MESSAGING);
            long gatewayPid = platform.pid(PlatformService.GATEWAY);
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("messaging-service", messagingPid);
            pids.put("gateway", gatewayPid);
            MessagingBench bench = new MessagingBench(messagingPid, gatewayPid,
                    new ProcessCpu(pids, platform.postgres().pid(), "bench JVM (clients)"), platform.log(PlatformService.MESSAGING));
            bench.run(results, platform.postgres(), gateway, api, data, round, postsWarmUp, attachmentsWarmUp);
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }

    private void run(Results results, PostgresServer postgres, URI gateway, GatewayApi api, MessagingData data, Duration round,
                     Duration postsWarmUp, Duration attachmentsWarmUp) throws Exception {
        MessagePosts posts = new MessagePosts(gateway, data.apiKey(), data.conversations());
        AttachmentRoundTrips attachments = new AttachmentRoundTrips(gateway, data.apiKey(), data.conversations());
        // One of each first: a broken path fails here, not as a column of errors in the figures.
        api.as(data.apiKey(), "POST", "/v1/messages/conversations/" + data.conversations().get(0) + "/messages", MessagePosts.BODY, 201);
        attachments.once(data.conversations().get(0));

        long maxHeap = Jcmd.maxHeapBytes(messagingPid);
        HeapSampler.Peak atRest = atRest();
        Jcmd.LiveHeap liveAtRest = Jcmd.liveHeap(messagingPid);
        System.out.printf("messaging-service: max heap %.0f MiB (services run with %s); at rest %s; %s%n", maxHeap / MIB,
                String.join(" ", PlatformOptions.DEFAULT_JVM_OPTIONS), atRest.line(), describe(liveAtRest));
        System.out.println("PostgreSQL: " + settings(postgres));

        System.out.printf("%n== 1. POST /v1/messages/conversations/:id/messages through the gateway, %d clients, rounds of %d s,"
                + " load from a JVM client; %s%n", POST_CLIENTS, round.toSeconds(), Machine.loadAverage());
        System.out.println("warm-up (JIT, pools):");
        System.out.println(posts.ownConversations("  own conversation each", POST_CLIENTS, postsWarmUp).line());
        Measured<LoadRun.Result> own = measure(() -> posts.ownConversations("own conversation each", POST_CLIENTS, round),
                r -> (int) r.calls());
        printPosts(own);
        Measured<LoadRun.Result> shared = measure(() -> posts.sharedConversation("one shared conversation", POST_CLIENTS, round),
                r -> (int) r.calls());
        printPosts(shared);
        MailState.Smtp smtp = MailState.smtp(messagingPid);
        try (Connection messaging = messagingDb(postgres)) {
            MailState.drain(messaging, smtp, MAIL_DRAIN_CAP);
        }

        System.out.printf("%n== 2. Attachments of %,d bytes (application/pdf) through the gateway, %d clients each in its own"
                        + " conversation, rounds of %d s; %s%n", AttachmentRoundTrips.FILE_BYTES, ATTACHMENT_CLIENTS, round.toSeconds(),
                Machine.loadAverage());
        System.out.println("warm-up (upload then download):");
        printRound(attachments.run("  round trips", ATTACHMENT_CLIENTS, attachmentsWarmUp, true));
        System.out.println("upload, then download by its link without a key, SHA-256 compared:");
        Measured<AttachmentRoundTrips.Round> trips = measure(() -> attachments.run("round trips", ATTACHMENT_CLIENTS, round, true),
                r -> (int) (r.uploads().ok() + r.downloads().ok()));
        printRound(trips.result());
        trips.print();
        System.out.println("uploads alone:");
        Measured<AttachmentRoundTrips.Round> uploads = measure(() -> attachments.run("uploads alone", ATTACHMENT_CLIENTS, round, false),
                r -> (int) r.uploads().ok());
        printRound(uploads.result());
        uploads.print();
        Jcmd.LiveHeap liveInFlight = liveHeapInFlight(attachments);
        System.out.printf("live heap with %d round trips in flight (a separate %d s round, not measured): %s%n", ATTACHMENT_CLIENTS,
                LIVE_HEAP_ROUND.toSeconds(), describe(liveInFlight));
        if (attachments.foreignLink() != null) {
            System.out.println("   note: links named " + attachments.foreignLink() + ", not this gateway; downloaded through this gateway by their path");
        }

        System.out.printf("%n== 3. Ceiling: one INSERT of the %,d bytes (bytea) per call over JDBC into the same PostgreSQL,"
                + " %d clients, %d s; %s%n", AttachmentRoundTrips.FILE_BYTES, ATTACHMENT_CLIENTS, round.toSeconds(), Machine.loadAverage());
        Duration half = attachmentsWarmUp.dividedBy(2);
        Duration ceilingWarmUp = half.compareTo(Duration.ofSeconds(5)) < 0 ? half : Duration.ofSeconds(5);
        System.out.println(AttachmentCeiling.run(postgres, "  warm-up", ATTACHMENT_CLIENTS, ceilingWarmUp).line());
        Measured<Transfers> ceiling = measure(() -> AttachmentCeiling.run(postgres, "INSERT of the file", ATTACHMENT_CLIENTS, round),
                r -> (int) r.ok());
        System.out.println(ceiling.result().line());
        System.out.println("   errors: " + ceiling.result().failuresText());
        System.out.println("   CPU: " + ceiling.cpu());

        MailState mail;
        try (Connection messaging = messagingDb(postgres)) {
            mail = MailState.read(messaging, smtp);
        }
        summary(own, shared, trips, uploads, ceiling, maxHeap, liveAtRest, liveInFlight, mail);
        record(results, own, shared, trips, uploads, ceiling, maxHeap, liveAtRest, liveInFlight, mail);
    }

    /**
     * The summary's figures, kept: {@code posts.*}, {@code attachments.*}, {@code ceiling.*}, {@code heap.*},
     * {@code mail.*}, {@code log.*}. The headlines: posts/s in own conversations and 10 MB uploads alone (MiB/s),
     * with the uploads' ratio to the one-INSERT ceiling.
     */
    private static void record(Results results, Measured<LoadRun.Result> own, Measured<LoadRun.Result> shared,
                               Measured<AttachmentRoundTrips.Round> trips, Measured<AttachmentRoundTrips.Round> uploads,
                               Measured<Transfers> ceiling, long maxHeap, Jcmd.LiveHeap liveAtRest, Jcmd.LiveHeap liveInFlight,
                               MailState mail) {
        String posting = POST_CLIENTS + " clients";
        for (Measured<LoadRun.Result> posts : List.of(own, shared)) {
            LoadRun.Result r = posts.result();
            String key = posts == own ? "posts.own" : "posts.shared";
            String label = "POST message, " + (posts == own ? "own conversation each, " : "one shared conversation, ") + posting;
            results.load(key, label, r.perSecond(), "msg/s", r.p50Ms(), r.p99Ms(), posts == own ? Results.Role.HEADLINE
                    : Results.Role.DETAIL);
            results.record(key + ".errors", r.errors(), "calls", label + ", errors");
        }
        String files = ATTACHMENT_CLIENTS + " clients";
        Transfers alone = uploads.result().uploads();
        Transfers db = ceiling.result();
        transfers(results, "attachments.roundTrips.upload", "10 MB upload (then download), " + files, trips.result().uploads(),
                Results.Role.DETAIL);
        transfers(results, "attachments.roundTrips.download", "10 MB download (SHA-256 checked), " + files,
                trips.result().downloads(), Results.Role.DETAIL);
        transfers(results, "attachments.uploads", "10 MB upload alone, " + files, alone, Results.Role.HEADLINE);
        transfers(results, "ceiling.insert", "ceiling: 10 MB INSERT over JDBC, " + files, db, Results.Role.DETAIL);
        results.ceilingRatio("attachments.uploads.ratioToCeiling", 100 * alone.perSecond() / db.perSecond(),
                "10 MB uploads through the gateway / one INSERT over JDBC");
        results.record("attachments.roundTrips.ratioToCeiling", 100 * trips.result().uploads().perSecond() / db.perSecond(), "%",
                "10 MB uploads in round trips / one INSERT over JDBC");
        results.record("heap.maxMiB", maxHeap / MIB, "MiB", "messaging-service max heap");
        Map<String, Measured<?>> rounds = new LinkedHashMap<>();
        rounds.put("postsOwn", own);
        rounds.put("postsShared", shared);
        rounds.put("roundTrips", trips);
        rounds.put("uploads", uploads);
        rounds.forEach((name, round) -> {
            results.record("heap.peak." + name + ".usedMiB", round.heap().usedMiB(), "MiB",
                    "messaging-service peak heap used, " + name);
            results.record("heap.peak." + name + ".fullGcs", round.heap().fullGcs(), "GCs", "messaging-service full GCs, " + name);
        });
        liveHeap(results, "heap.live.atRest", "messaging-service live heap at rest", liveAtRest);
        liveHeap(results, "heap.live.inFlight", "messaging-service live heap, " + ATTACHMENT_CLIENTS + " round trips in flight",
                liveInFlight);
        results.record("mail.queued", mail.queued(), "mails", "mails to the prescriber queued");
        results.record("mail.sent", mail.sent(), "mails", "mails to the prescriber sent");
        results.record("log.errors", own.log().errors() + shared.log().errors() + trips.log().errors() + uploads.log().errors(),
                "lines", "messaging-service ERROR lines, measured rounds");
        results.record("log.warnings", own.log().warnings() + shared.log().warnings() + trips.log().warnings()
                + uploads.log().warnings(), "lines", "messaging-service WARN lines, measured rounds");
    }

    private static void transfers(Results results, String key, String label, Transfers t, Results.Role role) {
        if (t == null) {
            return;
        }
        results.record(key + ".perSecond", t.perSecond(), "files/s", label);
        results.add(role, key + ".mibPerSecond", t.mibPerSecond(), "MiB/s", label);
        results.record(key + ".p50Ms", t.p50Ms(), "ms", label + ", p50");
        results.record(key + ".p99Ms", t.p99Ms(), "ms", label + ", p99");
        results.record(key + ".errors", t.errors(), "calls", label + ", errors");
    }

    private static void liveHeap(Results results, String key, String label, Jcmd.LiveHeap live) {
        if (live != null) {
            results.record(key + ".totalMiB", live.totalBytes() / MIB, "MiB", label);
            results.record(key + ".byteArraysMiB", live.byteArrayBytes() / MIB, "MiB", label + ", in byte arrays");
        }
    }

    private <T> Measured<T> measure(Load<T> load, ToIntFunction<T> events) throws Exception {
        long logAt = ServiceLog.end(messagingLog);
        ProcessCpu.Snapshot before = cpu.snapshot();
        HeapSampler heap = HeapSampler.start(messagingPid, HEAP_SAMPLE_EVERY);
        HeapSampler gatewayHeap = HeapSampler.start(gatewayPid, HEAP_SAMPLE_EVERY);
        T result;
        try {
            result = load.run();
        } finally {
            heap.close();
            gatewayHeap.close();
        }
        ProcessCpu.Snapshot after = cpu.snapshot();
        return new Measured<>(result, heap.stop(), gatewayHeap.stop(), cpu.describe(before, after, Math.max(1, events.applyAsInt(result))),
                ServiceLog.since(messagingLog, logAt));
    }

    /**
     * What messaging-service's heap really holds while {@link #ATTACHMENT_CLIENTS} round trips are in
     * flight: a round of its own (a class histogram collects the whole heap, stopping the service),
     * histograms at a third and two thirds of it, the one with more byte arrays kept. Eight whole
     * files held in memory would be 80 MiB of byte arrays; streamed in 1 MiB chunks, a few MiB each.
     */
    private Jcmd.LiveHeap liveHeapInFlight(AttachmentRoundTrips attachments) throws Exception {
        Thread load = new Thread(() -> {
            try {
                attachments.run("live heap", ATTACHMENT_CLIENTS, LIVE_HEAP_ROUND, true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "live-heap-round");
        load.start();
        Jcmd.LiveHeap most = null;
        for (int i = 0; i < 2; i++) {
            load.join(LIVE_HEAP_ROUND.toMillis() / 3);
            Jcmd.LiveHeap live = Jcmd.liveHeap(messagingPid);
            if (live != null && (most == null || live.byteArrayBytes() > most.byteArrayBytes())) {
                most = live;
            }
        }
        load.join();
        return most;
    }

    private static String describe(Jcmd.LiveHeap live) {
        return live == null ? "live heap unknown (jcmd failed)"
                : String.format("live %.0f MiB, of which %.0f MiB in %,d byte arrays", live.totalBytes() / MIB,
                        live.byteArrayBytes() / MIB, live.byteArrays());
    }

    /** messaging-service's heap over a second with nothing to do. */
    private HeapSampler.Peak atRest() throws Exception {
        HeapSampler heap = HeapSampler.start(messagingPid, HEAP_SAMPLE_EVERY);
        heap.awaitSamples(5, Duration.ofSeconds(10));
        return heap.stop();
    }

    private static void printPosts(Measured<LoadRun.Result> posts) {
        System.out.println(posts.result().line());
        System.out.println("   errors (anything but 201): " + posts.result().failuresText());
        posts.print();
    }

    private static void printRound(AttachmentRoundTrips.Round round) {
        System.out.println(round.uploads().line());
        System.out.println("   errors: " + round.uploads().failuresText());
        if (round.downloads() != null) {
            System.out.println(round.downloads().line());
            System.out.println("   errors: " + round.downloads().failuresText());
        }
    }

    private static void summary(Measured<LoadRun.Result> own, Measured<LoadRun.Result> shared,
                                Measured<AttachmentRoundTrips.Round> trips, Measured<AttachmentRoundTrips.Round> uploads,
                                Measured<Transfers> ceiling, long maxHeap, Jcmd.LiveHeap liveAtRest, Jcmd.LiveHeap liveInFlight,
                                MailState mail) {
        Transfers up = trips.result().uploads();
        Transfers down = trips.result().downloads();
        Transfers alone = uploads.result().uploads();
        Transfers db = ceiling.result();
        System.out.printf("%n== Summary (%d cores, %s)%n", Machine.cores(), Machine.loadAverage());
        for (Measured<LoadRun.Result> posts : List.of(own, shared)) {
            LoadRun.Result r = posts.result();
            System.out.printf("POST message, %-24s %2d clients: %7.0f /s   p50 %6.1f ms   p99 %6.1f ms   %d errors of %d%n",
                    r.name() + ",", POST_CLIENTS, r.perSecond(), r.p50Ms(), r.p99Ms(), r.errors(), r.calls());
        }
        System.out.printf("10 MB upload (then download), %d clients:  %5.2f /s  %6.1f MiB/s   p50 %6.0f ms   p99 %6.0f ms   %d errors%n",
                ATTACHMENT_CLIENTS, up.perSecond(), up.mibPerSecond(), up.p50Ms(), up.p99Ms(), up.errors());
        System.out.printf("10 MB download (SHA-256 checked), %d clients: %5.2f /s  %6.1f MiB/s   p50 %6.0f ms   p99 %6.0f ms   %d errors%n",
                ATTACHMENT_CLIENTS, down.perSecond(), down.mibPerSecond(), down.p50Ms(), down.p99Ms(), down.errors());
        System.out.printf("10 MB upload alone, %d clients:            %5.2f /s  %6.1f MiB/s   p50 %6.0f ms   p99 %6.0f ms   %d errors%n",
                ATTACHMENT_CLIENTS, alone.perSecond(), alone.mibPerSecond(), alone.p50Ms(), alone.p99Ms(), alone.errors());
        System.out.printf("ceiling: 10 MB INSERT over JDBC, %d clients: %5.2f /s  %6.1f MiB/s   p50 %6.0f ms   p99 %6.0f ms   %d errors%n",
                ATTACHMENT_CLIENTS, db.perSecond(), db.mibPerSecond(), db.p50Ms(), db.p99Ms(), db.errors());
        System.out.printf("upload through the gateway = %.0f %% of the ceiling alone (%.2f vs %.2f /s), %.0f %% in round trips (%.2f /s)%n",
                100 * alone.perSecond() / db.perSecond(), alone.perSecond(), db.perSecond(), 100 * up.perSecond() / db.perSecond(),
                up.perSecond());
        System.out.printf("messaging-service peak heap used (max heap %.0f MiB): posts %.0f MiB, shared posts %.0f MiB,"
                        + " round trips %.0f MiB, uploads alone %.0f MiB; full GCs: %d, %d, %d, %d%n",
                maxHeap / MIB, own.heap().usedMiB(), shared.heap().usedMiB(), trips.heap().usedMiB(), uploads.heap().usedMiB(),
                own.heap().fullGcs(), shared.heap().fullGcs(), trips.heap().fullGcs(), uploads.heap().fullGcs());
        System.out.printf("messaging-service live heap (after a full GC): at rest %s; with %d attachment round trips in flight %s%n",
                describe(liveAtRest), ATTACHMENT_CLIENTS, describe(liveInFlight));
        System.out.println(mail.line());
        long errors = own.log().errors() + shared.log().errors() + trips.log().errors() + uploads.log().errors();
        long warnings = own.log().warnings() + shared.log().warnings() + trips.log().warnings() + uploads.log().warnings();
        System.out.printf("messaging-service logged %d ERROR and %d WARN lines during the measured rounds%n", errors, warnings);
    }

    private static Connection messagingDb(PostgresServer postgres) throws Exception {
        return DriverManager.getConnection(postgres.jdbcUrl("messaging"), postgres.username(), postgres.password());
    }

    /** The server settings that bear on large writes. */
    private static String settings(PostgresServer postgres) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("messaging"), postgres.username(), postgres.password());
             Statement st = db.createStatement()) {
            for (String setting : List.of("server_version", "shared_buffers", "synchronous_commit", "fsync", "max_wal_size",
                    "wal_compression", "default_toast_compression")) {
                try (ResultSet rs = st.executeQuery("SHOW " + setting)) {
                    rs.next();
                    out.append(out.isEmpty() ? "" : ", ").append(setting).append(" ").append(rs.getString(1));
                }
            }
        }
        return out.toString();
    }
}

package com.telemed.bench.billing;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.ServiceLog;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.bench.support.Waits;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The measurement of the ledger's catch-up: with billing-service stopped (and the platform's other consumers of these
 * topics, messaging-service and webhook-service, so that nothing else works through the same records on the two cores),
 * every event of {@link BillingData} is published; then billing-service starts and the clock runs from its launch until
 * the ledger holds every event (a row in {@code consumed_events}, written in the transaction of the ledger change).
 *
 * <p>The end is seen by a poll every {@value #POLL_MS} ms on billing's database that costs next to nothing: whether the
 * envelope ids of the last record of every partition are in {@code consumed_events} (one channel's batches are applied
 * in order, so a partition's last record applied means all of it is), then one {@code count(*)} confirms the total. The
 * throughput over time comes afterwards from the rows themselves ({@code consumed_at} is each batch transaction's start).
 */
final class LedgerCatchUp {

    static final List<String> TOPICS = List.of("member.events", "care.events");
    private static final long POLL_MS = 100;
    private static final Duration CAP = Duration.ofMinutes(60);
    private static final int BUCKET_SECONDS = 10;

    /** What the catch-up came to; rates in events per second. */
    record Result(long events, double fromLaunch, double fromReady, long appliedAtReady, boolean complete, long onTopics) {
        double perSecond() {
            return events / fromLaunch;
        }

        double perSecondAfterReady() {
            return (events - appliedAtReady) / fromReady;
        }
    }

    private final BenchPlatform platform;
    private final BillingData data;
    private final Connection billingDb;
    private final String bootstrap;

    LedgerCatchUp(BenchPlatform platform, BillingData data, Connection billingDb) {
        this.platform = platform;
        this.data = data;
        this.billingDb = billingDb;
        this.bootstrap = platform.infrastructure().kafka().bootstrapServers();
    }

    Result run() throws Exception {
        System.out.println("\n== Catch-up: " + data.breakdown());
        for (PlatformService consumer : List.of(PlatformService.BILLING, PlatformService.MESSAGING, PlatformService.WEBHOOK)) {
            int exit = platform.platform().stop(consumer);
            System.out.printf("%s stopped (SIGTERM, exit code %d)%n", consumer.module(), exit);
        }
        System.out.println("messaging-service and webhook-service (care.events' other consumers) stay stopped to the end of the"
                + " run: the figures are billing-service's and Kafka's alone");
        long appliedBefore = count("SELECT count(*) FROM consumed_events");
        Map<TopicPartition, Long> before = endOffsets();
        long published = System.nanoTime();
        data.publish(bootstrap);
        double publishSeconds = (System.nanoTime() - published) / 1e9;
        Map<TopicPartition, Long> after = endOffsets();
        long added = 0;
        long onTopics = 0;
        for (Map.Entry<TopicPartition, Long> partition : after.entrySet()) {
            added += partition.getValue() - before.getOrDefault(partition.getKey(), 0L);
            onTopics += partition.getValue();
        }
        if (added != data.total()) {
            throw new IllegalStateException("the topics grew by " + added + " records, not " + data.total());
        }
        System.out.printf("published %,d records in %.0f s (%,.0f records/s, one producer, acks=all, as testkit's TopicWriter"
                        + " and the owners' relays send); member.events + care.events now hold %,d records (%s)%n",
                added, publishSeconds, added / publishSeconds, onTopics, partitions(after));
        List<UUID> lastIds = lastIds(before, after);
        long target = appliedBefore + data.total();

        Map<String, Long> others = new LinkedHashMap<>();
        for (PlatformService other : List.of(PlatformService.GATEWAY, PlatformService.MEMBERS, PlatformService.REQUESTS,
                PlatformService.CATALOGUE)) {
            others.put(other.module(), platform.pid(other));
        }
        others.put("kafka", platform.infrastructure().kafka().pid());
        String own = "bench JVM (poll)";
        ProcessCpu withoutBilling = new ProcessCpu(others, platform.postgres().pid(), own);
        Map<String, String> settings = postgresSettings();
        System.out.printf("PostgreSQL (the testkit's embedded server): synchronous_commit %s, fsync %s, shared_buffers %s;"
                        + " billing-service: JVM options %s (every service's), consumer settings its application.properties'%n",
                settings.get("synchronous_commit"), settings.get("fsync"), settings.get("shared_buffers"),
                String.join(" ", PlatformOptions.DEFAULT_JVM_OPTIONS));

        String wal0 = walLsn();
        long logAt = ServiceLog.end(platform.log(PlatformService.BILLING));
        System.out.printf("%nstarting billing-service: %,d events to apply; %s%n", data.total(), Machine.loadAverage());
        ProcessCpu.Snapshot cpuStart = withoutBilling.snapshot();
        Instant launchedAt = Instant.now();
        long t0 = System.nanoTime();
        platform.platform().startAgain(PlatformService.BILLING);
        long ready = System.nanoTime();
        long billingPid = platform.pid(PlatformService.BILLING);
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("billing-service", billingPid);
        pids.putAll(others);
        ProcessCpu cpu = new ProcessCpu(pids, platform.postgres().pid(), own);
        ProcessCpu.Snapshot cpuReady = cpu.snapshot();
        ThreadCpu threads = ThreadCpu.start(billingPid);
        long appliedAtReady = count("SELECT count(*) FROM consumed_events") - appliedBefore;
        System.out.printf("billing-service ready %.1f s after its launch (pid %d), %,d events already applied%n",
                (ready - t0) / 1e9, billingPid, appliedAtReady);

        long[] done = new long[1];
        int[] polls = new int[1];
        try (PreparedStatement last = billingDb.prepareStatement("SELECT count(*) FROM consumed_events WHERE event_id = ANY(?)")) {
            last.setArray(1, billingDb.createArrayOf("uuid", lastIds.toArray()));
            Waits.until(CAP, Duration.ofMillis(POLL_MS), () -> {
                polls[0]++;
                try (ResultSet rs = last.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) == lastIds.size()) {
                        done[0] = System.nanoTime();
                        return true;
                    }
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        ProcessCpu.Snapshot cpuDone = cpu.snapshot();
        String threadCpu = threads.describe(0.02);
        String wal1 = walLsn();
        long applied = count("SELECT count(*) FROM consumed_events");
        boolean complete = done[0] != 0 && applied == target;
        if (done[0] != 0 && applied != target) {
            System.out.printf("the last record of every partition is applied but consumed_events holds %,d of %,d: waiting for"
                    + " the count%n", applied, target);
            long[] counted = new long[1];
            complete = Waits.until(Duration.ofMinutes(5), Duration.ofSeconds(1), () -> {
                try {
                    counted[0] = count("SELECT count(*) FROM consumed_events");
                    return counted[0] == target;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            done[0] = System.nanoTime();
            cpuDone = cpu.snapshot();
            applied = counted[0];
        }
        long stopped = done[0] != 0 ? done[0] : System.nanoTime();
        double fromLaunch = (stopped - t0) / 1e9;
        double fromReady = (stopped - ready) / 1e9;
        long events = applied - appliedBefore;

        System.out.printf("%s: %,d events applied %.1f s after billing-service's launch = %,.0f events/s (%.1f s after ready:"
                        + " %,.0f events/s); polled %d times (every %d ms: the last record of each of %d partitions)%n",
                complete ? "caught up" : "NOT caught up within " + CAP.toMinutes() + " min", events, fromLaunch,
                events / fromLaunch, fromReady, (events - appliedAtReady) / fromReady, polls[0], POLL_MS, lastIds.size());
        System.out.println("   CPU from launch to caught up: " + cpu.describe(cpuStart, cpuDone, (int) Math.max(1, events)));
        System.out.println("   CPU from ready to caught up:  " + cpu.describe(cpuReady, cpuDone, (int) Math.max(1, events - appliedAtReady)));
        System.out.println("   " + quiet(cpuStart, cpuDone, fromLaunch));
        System.out.println("   billing-service CPU by thread, ready to caught up: " + threadCpu);
        System.out.println("   " + batches(launchedAt, events));
        System.out.printf("   WAL written: %s (%,.0f bytes per event)%n", walDiff(wal0, wal1), walBytes(wal0, wal1) / Math.max(1.0, events));
        System.out.println("   events applied per " + BUCKET_SECONDS + " s after the launch (consumed_at, each batch transaction's"
                + " start): " + timeline(launchedAt));
        System.out.println("   ledger: " + ledgerState());
        System.out.println("   billing-service log: " + ServiceLog.since(platform.log(PlatformService.BILLING), logAt).describe(6));
        return new Result(events, fromLaunch, fromReady, appliedAtReady, complete, onTopics);
    }

    /** billing-service's {@code max.poll.records} for a channel, from the properties it was built with. */
    static int maxPollRecords() throws Exception {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(BenchPlatform.root().resolve(
                "billing-service/src/main/resources/application.properties"))) {
            properties.load(in);
        }
        String care = properties.getProperty("mp.messaging.incoming.care-events.max.poll.records");
        String member = properties.getProperty("mp.messaging.incoming.member-events.max.poll.records");
        if (care == null || !care.equals(member)) {
            throw new IllegalStateException("billing-service's channels poll " + care + " and " + member + " records: update the bench");
        }
        return Integer.parseInt(care.trim());
    }

    private Map<TopicPartition, Long> endOffsets() {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : TOPICS) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
            return new LinkedHashMap<>(consumer.endOffsets(partitions));
        }
    }

    /** The envelope id of the last record of every partition the publication added to. */
    private List<UUID> lastIds(Map<TopicPartition, Long> before, Map<TopicPartition, Long> after) throws Exception {
        Map<TopicPartition, Long> last = new HashMap<>();
        after.forEach((partition, end) -> {
            if (end > before.getOrDefault(partition, 0L)) {
                last.put(partition, end - 1);
            }
        });
        Map<TopicPartition, UUID> ids = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            consumer.assign(last.keySet());
            last.forEach(consumer::seek);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ids.size() < last.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() == last.get(partition)) {
                        ids.put(partition, UUID.fromString(GatewayApi.JSON.readTree(record.value()).path("id").asText()));
                    }
                }
            }
        }
        if (ids.size() != last.size()) {
            throw new IllegalStateException("read the last record of " + ids.size() + " of " + last.size() + " partitions");
        }
        return new ArrayList<>(ids.values());
    }

    private KafkaConsumer<String, String> consumer() {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("enable.auto.commit", "false");
        return new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
    }

    private static String partitions(Map<TopicPartition, Long> ends) {
        StringBuilder out = new StringBuilder();
        ends.forEach((partition, end) -> out.append(out.isEmpty() ? "" : ", ").append(partition).append(" ").append(String.format("%,d", end)));
        return out.toString();
    }

    private long count(String sql) throws Exception {
        try (Statement st = billingDb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Map<String, String> postgresSettings() throws Exception {
        Map<String, String> settings = new HashMap<>();
        try (Statement st = billingDb.createStatement(); ResultSet rs = st.executeQuery("SELECT name, setting || coalesce(unit, '')"
                + " FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'shared_buffers')")) {
            while (rs.next()) {
                settings.put(rs.getString(1), rs.getString(2));
            }
        }
        return settings;
    }

    private String walLsn() throws Exception {
        try (Statement st = billingDb.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private long walBytes(String from, String to) throws Exception {
        try (PreparedStatement st = billingDb.prepareStatement("SELECT pg_wal_lsn_diff(?::pg_lsn, ?::pg_lsn)::bigint")) {
            st.setString(1, to);
            st.setString(2, from);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private String walDiff(String from, String to) throws Exception {
        return String.format("%,.0f MB", walBytes(from, to) / 1e6);
    }

    /** The batch transactions: each stamped its rows with its own start (now()), so distinct consumed_at values. */
    private String batches(Instant launchedAt, long events) throws Exception {
        try (PreparedStatement st = billingDb.prepareStatement("SELECT count(DISTINCT consumed_at), max(consumed_at) - min(consumed_at)"
                + " FROM consumed_events WHERE consumed_at >= ?")) {
            st.setObject(1, launchedAt.atOffset(ZoneOffset.UTC));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                long transactions = rs.getLong(1);
                return String.format("%,d batch transactions (distinct consumed_at), %,.0f events each on average (max.poll.records"
                        + " %d per channel); first to last batch start %s", transactions, events / Math.max(1.0, transactions),
                        maxPollRecords(), rs.getString(2));
            }
        }
    }

    private String timeline(Instant launchedAt) throws Exception {
        StringBuilder out = new StringBuilder();
        try (PreparedStatement st = billingDb.prepareStatement("SELECT floor(extract(epoch FROM consumed_at - ?) / ?)::int AS bucket,"
                + " count(*) FROM consumed_events WHERE consumed_at >= ? GROUP BY 1 ORDER BY 1")) {
            OffsetDateTime at = launchedAt.atOffset(ZoneOffset.UTC);
            st.setObject(1, at);
            st.setInt(2, BUCKET_SECONDS);
            st.setObject(3, at);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.append(out.isEmpty() ? "" : ", ").append(String.format("%d-%ds %,d", rs.getInt(1) * BUCKET_SECONDS,
                            (rs.getInt(1) + 1) * BUCKET_SECONDS, rs.getLong(2)));
                }
            }
        }
        return out.toString();
    }

    private String ledgerState() throws Exception {
        try (PreparedStatement st = billingDb.prepareStatement("SELECT (SELECT count(*) FROM ledger_members),"
                + " (SELECT count(*) FROM ledger_members WHERE partner_id = ? AND billing_start IS NOT NULL),"
                + " (SELECT count(*) FROM ledger_members WHERE billing_start IS NOT NULL),"
                + " (SELECT count(*) FROM ledger_status_changes),"
                + " pg_size_pretty(pg_total_relation_size('ledger_members')), pg_size_pretty(pg_total_relation_size('ledger_status_changes')),"
                + " pg_size_pretty(pg_total_relation_size('consumed_events'))")) {
            st.setString(1, data.partnerId);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                boolean right = rs.getLong(1) == data.members && rs.getLong(2) == data.billable && rs.getLong(3) == data.billable
                        && rs.getLong(4) == data.members + data.statusChanges();
                return String.format("%,d members (%,d billable, all the partner under test's: %,d), %,d status points; tables with"
                                + " indexes: ledger_members %s, ledger_status_changes %s, consumed_events %s; %s", rs.getLong(1),
                        rs.getLong(3), rs.getLong(2), rs.getLong(4), rs.getString(5), rs.getString(6), rs.getString(7),
                        right ? "as published" : "NOT AS PUBLISHED (expected " + data.members + " members, " + data.billable
                                + " billable, " + (data.members + data.statusChanges()) + " status points)");
            }
        }
    }

    /** Whether other work shared the machine: busy time no process of the platform (nor this JVM) accounts for. */
    static String quiet(ProcessCpu.Snapshot before, ProcessCpu.Snapshot after, double seconds) {
        double foreign = ProcessCpu.unaccounted(before, after);
        boolean noisy = foreign > 0.1 * seconds * Machine.cores();
        return String.format("%s: %.1f s of CPU outside the platform and this JVM (kernel threads and interrupts included)%s",
                noisy ? "NOT a clean figure" : "a quiet machine", foreign, noisy ? ": another build or test on the machine?" : "");
    }
}

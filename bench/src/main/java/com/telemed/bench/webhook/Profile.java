package com.telemed.bench.webhook;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.JfrProfile;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.StatementStats;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.testkit.platform.PlatformService;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where an event's cost goes in webhook-service (issue 44), over the first measured throughput round, with
 * {@code BENCH_PROFILE=1}: a Flight Recorder profile of webhook-service (its CPU per event split by what it ran:
 * Kafka client, PostgreSQL driver, signing, Vert.x HTTP client ...), its CPU by thread (Kafka poll thread, intake
 * workers, sender event loop, recorder, claim loop, JIT, GC), and PostgreSQL's statements per event
 * ({@code pg_stat_statements}: calls, mean time, rows). Asked for, not always taken: the recording and the statistics
 * cost a few per cent, so the headline figures come from runs without it (as bench/requests.sh's profile).
 */
final class Profile {

    private final BenchPlatform platform;
    private final JfrProfile jfr;
    private StatementStats statements;
    private ThreadCpu threads;
    private ProcessCpu cpu;
    private ProcessCpu.Snapshot before;
    private Instant roundStart;

    private Profile(BenchPlatform platform, JfrProfile jfr) {
        this.platform = platform;
        this.jfr = jfr;
    }

    static boolean requested() {
        return "1".equals(System.getenv("BENCH_PROFILE"));
    }

    /** Before the warm-up round: the recording's deoptimisation is over before the measured round. */
    static Profile beforeWarmUp(BenchPlatform platform) throws Exception {
        JfrProfile jfr = JfrProfile.start(Map.of("webhook-service", platform.pid(PlatformService.WEBHOOK)),
                BenchPlatform.root().resolve("bench/target/profile"));
        return new Profile(platform, jfr);
    }

    /** The profiled round begins. */
    void roundStarts() throws Exception {
        statements = StatementStats.of(platform.postgres());
        if (statements != null) {
            statements.reset();
        }
        long pid = platform.pid(PlatformService.WEBHOOK);
        threads = ThreadCpu.start(pid);
        cpu = new ProcessCpu(Map.of("webhook-service", pid), platform.postgres().pid(), "bench JVM");
        before = cpu.snapshot();
        roundStart = Instant.now();
    }

    /** Prints the round's figures per event. */
    void stop(int events) throws Exception {
        ProcessCpu.Snapshot after = cpu.snapshot();
        System.out.printf("%nProfile of the round (%d events):%n", events);
        System.out.printf("webhook-service by thread: %s%n", threads.describe(0.02));
        if (statements != null) {
            List<StatementStats.Entry> entries = statements.read();
            // At least once per 2,000 events: the intake's inserts run once per batch of up to 500.
            System.out.printf("PostgreSQL statements per event (pg_stat_statements, those run at least once per 2,000 events;"
                    + " time is execution, lock waits included):%n%s", StatementStats.describe(entries, events, 0.0005));
            System.out.println("rows per call, webhook-service's statements:");
            for (StatementStats.Entry entry : entries) {
                if (entry.database().equals("webhook") && entry.perEvent(events) >= 0.0005) {
                    String query = entry.query().replaceAll("\\s+", " ").strip();
                    System.out.printf("  %7.1f  %s%n", (double) entry.rows() / Math.max(1, entry.calls()),
                            query.substring(0, Math.min(100, query.length())));
                }
            }
            Path file = BenchPlatform.root().resolve("bench/target/profile/statements.tsv");
            StatementStats.write(entries, events, file);
            System.out.println("(every statement, in full: " + file + ")");
        }
        Map<String, Path> files = jfr.stop();
        Path file = files.get("webhook-service");
        if (file != null) {
            long[] was = before.ticks().get("webhook-service");
            long[] now = after.ticks().get("webhook-service");
            double cpuMs = was == null || now == null ? 0 : (now[0] + now[1] - was[0] - was[1]) * 10.0 / events;
            System.out.printf("Flight Recorder profile of webhook-service (%s; execution samples, ms = its CPU per event by"
                    + " the samples' shares):%n%s", file, JfrProfile.breakdown(file, roundStart).describe(cpuMs, 25));
        }
        System.out.println();
    }
}

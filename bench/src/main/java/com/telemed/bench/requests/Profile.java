package com.telemed.bench.requests;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.JfrProfile;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.StatementStats;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.testkit.platform.PlatformService;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a create's cost goes, over the measured round through the gateway (issue 23): each
 * process's CPU per create, always; with {@code BENCH_PROFILE=1} also a Flight Recorder profile of
 * the four services on the create path (gateway, requests, members, catalogue: their CPU split by
 * what it ran) and PostgreSQL's statements per create ({@code pg_stat_statements}). The profile is
 * asked for, not always taken: its recording and statistics cost a few per cent, so the headline
 * figures come from runs without it.
 */
final class Profile {

    static final List<PlatformService> CREATE_PATH = List.of(PlatformService.GATEWAY, PlatformService.REQUESTS,
            PlatformService.MEMBERS, PlatformService.CATALOGUE);

    private final BenchPlatform platform;
    private final boolean wrk;
    private final JfrProfile jfr;
    private ProcessCpu cpu;
    private ProcessCpu.Snapshot before;
    private StatementStats statements;
    private Map<String, ThreadCpu> threads;
    private Instant roundStart;

    private Profile(BenchPlatform platform, boolean wrk, JfrProfile jfr) {
        this.platform = platform;
        this.wrk = wrk;
        this.jfr = jfr;
    }

    static boolean requested() {
        return "1".equals(System.getenv("BENCH_PROFILE"));
    }

    /**
     * Before the warm-up: starts the Flight Recorder recordings when asked for, so that the recompiling
     * their settings cause is over before the measured round ({@link JfrProfile#breakdown}).
     */
    static Profile beforeWarmUp(BenchPlatform platform, boolean wrk) throws Exception {
        JfrProfile jfr = null;
        if (requested()) {
            Map<String, Long> profiled = new LinkedHashMap<>();
            CREATE_PATH.forEach(service -> profiled.put(service.module(), platform.pid(service)));
            jfr = JfrProfile.start(profiled, BenchPlatform.root().resolve("bench/target/profile"));
        }
        return new Profile(platform, wrk, jfr);
    }

    /** The measured round begins: CPU, threads and statements are counted from here. */
    void roundStarts() throws Exception {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (PlatformService service : PlatformService.values()) {
            long pid = platform.pid(service);
            if (pid > 0) {
                pids.put(service.module(), pid);
            }
        }
        if (requested()) {
            statements = StatementStats.of(platform.postgres());
            if (statements != null) {
                statements.reset();
            }
        }
        threads = new LinkedHashMap<>();
        CREATE_PATH.forEach(service -> threads.put(service.module(), ThreadCpu.start(platform.pid(service))));
        cpu = new ProcessCpu(pids, platform.postgres().pid(), wrk ? "bench JVM (Kafka, wrk)" : "bench JVM (Kafka, load)", wrk);
        before = cpu.snapshot();
        roundStart = Instant.now();
    }

    /** Prints the round's figures per create. */
    void stop(long creates) throws Exception {
        ProcessCpu.Snapshot after = cpu.snapshot();
        long events = Math.max(1, creates);
        System.out.printf("CPU per create over the round (%d creates): %s%n", creates, cpu.describe(before, after, (int) events));
        System.out.println("by thread (the request threads, the JIT compilers, the collector):");
        threads.forEach((service, thread) -> System.out.printf("  %-18s %s%n", service, thread.describe(0.05)));
        if (statements != null) {
            List<StatementStats.Entry> entries = statements.read();
            System.out.printf("%nPostgreSQL statements per create (pg_stat_statements, those run at least once per 20 creates):%n%s",
                    StatementStats.describe(entries, events, 0.05));
            Path file = BenchPlatform.root().resolve("bench/target/profile/statements.tsv");
            StatementStats.write(entries, events, file);
            System.out.println("(every statement, in full: " + file + ")");
        }
        if (jfr != null) {
            Map<String, Path> files = jfr.stop();
            System.out.printf("%nFlight Recorder profile (execution samples; ms = the process's CPU per create by the samples' shares):%n");
            for (Map.Entry<String, Path> file : files.entrySet()) {
                long[] was = before.ticks().get(file.getKey());
                long[] now = after.ticks().get(file.getKey());
                double cpuMs = was == null || now == null ? 0 : (now[0] + now[1] - was[0] - was[1]) * 10.0 / events;
                System.out.printf("%s (%s):%n%s", file.getKey(), file.getValue(), JfrProfile.breakdown(file.getValue(), roundStart).describe(cpuMs, 15));
            }
        }
        System.out.println();
    }
}

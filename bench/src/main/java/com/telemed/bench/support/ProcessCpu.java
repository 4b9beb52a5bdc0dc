package com.telemed.bench.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of the processes that matter, from /proc (clock ticks of 10 ms): where the cores went
 * during a measurement. PostgreSQL is the postmaster, its live backends and its reaped children;
 * the benchmark's own JVM is counted under a name of its own.
 */
public final class ProcessCpu {

    /** The machine's busy and total ticks, and each process's user and system ticks, at one moment. */
    public record Snapshot(long machineBusy, long machineTotal, Map<String, long[]> ticks) {
    }

    private final Map<String, Long> pids;
    private final long postgresPid;
    private final String ownName;
    private final boolean ownChildren;

    /**
     * @param pids        named processes, in the order they are to be printed
     * @param postgresPid the postmaster (0 or less: none)
     * @param ownName     how this JVM is named, after PostgreSQL
     */
    public ProcessCpu(Map<String, Long> pids, long postgresPid, String ownName) {
        this(pids, postgresPid, ownName, false);
    }

    /**
     * @param ownChildren whether this JVM's figure includes its reaped children (a load generator such
     *                    as wrk that it started and waited for before the second snapshot)
     */
    public ProcessCpu(Map<String, Long> pids, long postgresPid, String ownName, boolean ownChildren) {
        this.pids = new LinkedHashMap<>(pids);
        this.postgresPid = postgresPid;
        this.ownName = ownName;
        this.ownChildren = ownChildren;
    }

    public Snapshot snapshot() {
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
        ticks.put(ownName, ticks(ProcessHandle.current().pid(), ownChildren));
        return new Snapshot(busy, total, ticks);
    }

    /** User and system clock ticks of a process (with its reaped children for the postmaster, and when asked for this JVM). */
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

    /**
     * Machine busy share, then each process's CPU seconds, per event and system share, between two
     * snapshots, then the busy time no process above accounts for (the platform's other processes,
     * other work on the machine, the kernel's own threads such as writeback).
     */
    public String describe(Snapshot before, Snapshot after, int events) {
        // The machine's CPUs, not this JVM's: a JVM pinned to one CPU sees one processor.
        int listed = CpuBusy.snapshot().cpus().size();
        double cores = listed > 0 ? listed : Runtime.getRuntime().availableProcessors();
        double machine = 100.0 * (after.machineBusy() - before.machineBusy())
                / Math.max(1, after.machineTotal() - before.machineTotal());
        StringBuilder out = new StringBuilder(String.format("machine %.0f %% busy of %.0f cores", machine, cores));
        long named = 0;
        for (Map.Entry<String, long[]> entry : after.ticks().entrySet()) {
            long[] ticks = entry.getValue();
            long[] was = before.ticks().getOrDefault(entry.getKey(), new long[2]);
            long user = ticks[0] - was[0];
            long system = ticks[1] - was[1];
            named += user + system;
            out.append(String.format("; %s %.1f s (%.2f ms/event, %.0f %% system)", entry.getKey(), (user + system) / 100.0,
                    (user + system) * 10.0 / events, 100.0 * system / Math.max(1, user + system)));
        }
        // /proc/stat counts in the same 10 ms ticks: what the processes above do not account for.
        out.append(String.format("; everything else %.1f s", Math.max(0, after.machineBusy() - before.machineBusy() - named) / 100.0));
        return out.toString();
    }

    /**
     * The machine's busy seconds between two snapshots that none of their processes accounts for: work from outside
     * the platform (another build on the machine), the kernel's own threads, interrupts.
     */
    public static double unaccounted(Snapshot before, Snapshot after) {
        long named = 0;
        for (Map.Entry<String, long[]> entry : after.ticks().entrySet()) {
            long[] was = before.ticks().getOrDefault(entry.getKey(), new long[2]);
            named += entry.getValue()[0] - was[0] + entry.getValue()[1] - was[1];
        }
        return Math.max(0, after.machineBusy() - before.machineBusy() - named) / 100.0;
    }
}

package com.telemed.bench.fulfilment;

import com.telemed.bench.support.Jcmd;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.ServiceLog;
import com.telemed.bench.support.ThreadCpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What the bench watches during a round of {@link DueAtOnce}, besides the round itself: CPU per process and per
 * replica thread, the machine's interrupts and steal (so that a round on a busy machine says so), PostgreSQL's
 * table scans, the replicas' WARN/ERROR lines, which replica sent which order (by the pharmacy connection's client
 * port) and when, and, with {@code BENCH_JFR}, flight recordings of both replicas during the measured round.
 */
final class RoundProbes {

    /** The bucket of {@link Window#timeline}, in ms. */
    static final long BUCKET_MS = 250;

    private final Map<String, Long> replicas;
    private final Map<String, Path> logs;
    private final ProcessCpu cpu;
    private final int pharmacyPort;

    RoundProbes(Map<String, Long> replicas, Map<String, Path> logs, ProcessCpu cpu, int pharmacyPort) {
        this.replicas = replicas;
        this.logs = logs;
        this.cpu = cpu;
        this.pharmacyPort = pharmacyPort;
    }

    /** Starts watching: log offsets, table scans, the flight recordings ({@code jfr}, may be null), CPU clocks. */
    Window open(Connection db, String jfr) throws Exception {
        return new Window(db, jfr);
    }

    /** One round's watch, from {@link #open} to {@link #stop}, then read. */
    final class Window {

        private final Map<String, Long> logAt = new LinkedHashMap<>();
        private final Map<String, long[]> scansBefore;
        private final String jfr;
        private final Map<String, ThreadCpu> threads = new LinkedHashMap<>();
        private final ProcessCpu.Snapshot cpuBefore;
        private final long[] kernelBefore;
        private ProcessCpu.Snapshot cpuAfter;
        private long[] kernelAfter;
        private final Map<String, String> threadCpu = new LinkedHashMap<>();
        private Map<Integer, Long> ports = Map.of();

        private Window(Connection db, String jfr) throws Exception {
            this.jfr = jfr;
            logs.forEach((service, log) -> logAt.put(service, ServiceLog.end(log)));
            scansBefore = tableScans(db);
            if (jfr != null) {
                for (Map.Entry<String, Long> replica : replicas.entrySet()) {
                    Jcmd.run(replica.getValue(), "JFR.start", "name=bench", "settings=profile",
                            "filename=" + jfr.replace(".jfr", "") + "-" + replica.getKey().replace(' ', '-') + ".jfr");
                }
            }
            replicas.forEach((replica, pid) -> threads.put(replica, ThreadCpu.start(pid)));
            cpuBefore = cpu.snapshot();
            kernelBefore = kernelTicks();
        }

        /** Stops the clocks and the recordings; notes which replica holds which connection to the pharmacy. */
        void stop() throws Exception {
            cpuAfter = cpu.snapshot();
            kernelAfter = kernelTicks();
            threads.forEach((replica, sampler) -> threadCpu.put(replica, sampler.describe(0.03)));
            if (jfr != null) {
                for (long pid : replicas.values()) {
                    Jcmd.run(pid, "JFR.stop", "name=bench");
                }
            }
            ports = SocketOwners.clientPorts(pharmacyPort, new ArrayList<>(replicas.values()));
        }

        /** CPU per process over the round, per item. */
        String cpu(int items) {
            return cpu.describe(cpuBefore, cpuAfter, items);
        }

        /** The replicas' WARN and ERROR lines since the round began. */
        Map<String, ServiceLog.Summary> logged() throws Exception {
            Map<String, ServiceLog.Summary> logged = new LinkedHashMap<>();
            for (Map.Entry<String, Path> log : logs.entrySet()) {
                logged.put(log.getKey(), ServiceLog.since(log.getValue(), logAt.get(log.getKey())));
            }
            return logged;
        }

        /** seq_scan / idx_scan of the tables a transmission reads or writes, since the round began. */
        String scans(Connection db) throws Exception {
            Map<String, long[]> after = tableScans(db);
            StringBuilder out = new StringBuilder();
            after.forEach((table, a) -> {
                long[] b = scansBefore.getOrDefault(table, new long[2]);
                out.append(out.isEmpty() ? "" : ", ").append(String.format("%s %d / %d", table, a[0] - b[0], a[1] - b[1]));
            });
            return out.toString();
        }

        void printThreads() {
            threadCpu.forEach((replica, line) -> System.out.println(replica + " CPU by thread: " + line));
        }

        /** Whether the machine was quiet: CPU no process of the platform (nor this JVM) accounts for. */
        String quiet(double seconds) {
            // Interrupts (loopback TCP's softirq among them) and steal are nobody's process time: told apart from the rest.
            double interrupts = (kernelAfter[0] - kernelBefore[0]) / 100.0;
            double steal = (kernelAfter[1] - kernelBefore[1]) / 100.0;
            double foreign = Math.max(0, foreignSeconds(cpuBefore, cpuAfter) - interrupts - steal);
            return String.format("%s: %.1f s of CPU outside the platform and this JVM during the round (besides %.1f s in"
                            + " interrupts, %.1f s stolen by the hypervisor)%s",
                    foreign > 0.1 * seconds * Machine.cores() ? "NOT a clean figure" : "a quiet machine", foreign, interrupts, steal,
                    foreign > 0.1 * seconds * Machine.cores() ? ": another build or test on the machine?" : "");
        }

        /** How many orders each replica sent, and its first and last arrival after the commit at {@code t0}. */
        String perReplica(LoopbackPharmacy.Round orders, long t0) {
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
        String timeline(LoopbackPharmacy.Round orders, long t0) {
            List<Long> pids = new ArrayList<>(replicas.values());
            TreeMap<Long, int[]> buckets = new TreeMap<>();
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
            for (long b = 0; b <= buckets.lastKey(); b++) {
                int[] c = buckets.getOrDefault(b, new int[3]);
                out.append(String.format(" %.2fs %d+%d%s", (b + 1) * BUCKET_MS / 1000.0, c[0], c[1], c[2] == 0 ? "" : "+" + c[2]));
            }
            return out.toString();
        }
    }

    /** EXPLAIN of the query Hibernate runs for PrescriptionRecord.find("lineItemId = ?1 and status <> ?2 order by createdAt desc, id desc"). */
    static String recordLookupPlan(Connection db, UUID itemId) throws Exception {
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

    /** The machine's irq + softirq ticks, and its steal ticks (/proc/stat). */
    private static long[] kernelTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
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
}

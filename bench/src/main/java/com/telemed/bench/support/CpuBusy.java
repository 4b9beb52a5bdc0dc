package com.telemed.bench.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How busy each CPU was between two moments, from /proc/stat's {@code cpuN} lines: which core a
 * pinned setup saturates (issue 23, the gateway's isolated rounds).
 */
public final class CpuBusy {

    /** Per CPU, {busy ticks, total ticks}; empty without /proc. */
    public record Snapshot(List<long[]> cpus) {
    }

    private CpuBusy() {
    }

    public static Snapshot snapshot() {
        List<long[]> cpus = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (line.startsWith("cpu") && Character.isDigit(line.charAt(3))) {
                    cpus.add(ticks(line));
                }
            }
        } catch (Exception e) {
            // no /proc: nothing to say
        }
        return new Snapshot(cpus);
    }

    /** Busy percent of each CPU between the two snapshots. */
    public static double[] busy(Snapshot before, Snapshot after) {
        int n = Math.min(before.cpus().size(), after.cpus().size());
        double[] busy = new double[n];
        for (int i = 0; i < n; i++) {
            long[] was = before.cpus().get(i);
            long[] is = after.cpus().get(i);
            busy[i] = 100.0 * (is[0] - was[0]) / Math.max(1, is[1] - was[1]);
        }
        return busy;
    }

    /** "CPU 0 97 % busy, CPU 1 81 %". */
    public static String describe(Snapshot before, Snapshot after) {
        double[] busy = busy(before, after);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < busy.length; i++) {
            out.append(i == 0 ? "" : ", ").append(String.format("CPU %d %.0f %%%s", i, busy[i], i == 0 ? " busy" : ""));
        }
        return out.toString();
    }

    /** {busy, total} of one {@code cpuN} line: user nice system idle iowait irq softirq steal; idle and iowait are not busy. */
    static long[] ticks(String line) {
        String[] f = line.trim().split("\\s+");
        long busy = 0;
        long total = 0;
        for (int i = 1; i < f.length && i <= 8; i++) {
            long v = Long.parseLong(f[i]);
            total += v;
            if (i != 4 && i != 5) {
                busy += v;
            }
        }
        return new long[] {busy, total};
    }
}

package com.telemed.bench.messaging;

import com.telemed.bench.support.LoadRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One kind of file transfer of a round (uploads, downloads, or the ceiling's INSERTs): the ones that
 * succeeded, the failures by what they were, the round's length and every transfer's latency.
 */
record Transfers(String name, long ok, long errors, Map<String, Long> failures, double seconds, Histogram latencies,
                 int fileBytes) {

    private static final double MIB = 1024.0 * 1024.0;

    double perSecond() {
        return ok / seconds;
    }

    double mibPerSecond() {
        return ok * (double) fileBytes / MIB / seconds;
    }

    double p50Ms() {
        return latencies.getValueAtPercentile(50) / 1000.0;
    }

    double p99Ms() {
        return latencies.getValueAtPercentile(99) / 1000.0;
    }

    String line() {
        return String.format("%-40s %6.2f /s  %6.1f MiB/s   p50 %7.1f ms   p99 %7.1f ms   (%d ok, %d errors)",
                name, perSecond(), mibPerSecond(), p50Ms(), p99Ms(), ok, errors);
    }

    /** The failures as {@code count x what}; {@code none} without any. */
    String failuresText() {
        if (failures.isEmpty()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        failures.forEach((what, count) -> parts.add(count + " x " + what));
        return String.join("; ", parts);
    }

    /** Counts transfers while a round runs, from any number of client threads. */
    static final class Tally {

        private final Recorder latencies = new Recorder(60_000_000L, 3);
        private final LongAdder ok = new LongAdder();
        private final LongAdder errors = new LongAdder();
        private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

        void succeeded(long startedNanos) {
            record(startedNanos);
            ok.increment();
        }

        void failed(long startedNanos, String what) {
            record(startedNanos);
            errors.increment();
            failures.computeIfAbsent(what, k -> new LongAdder()).increment();
        }

        private void record(long startedNanos) {
            latencies.recordValue(Math.min(60_000_000L, Math.max(1, (System.nanoTime() - startedNanos) / 1000)));
        }

        Transfers result(String name, double seconds, int fileBytes) {
            return new Transfers(name, ok.sum(), errors.sum(), LoadRun.sorted(failures), seconds,
                    latencies.getIntervalHistogram(), fileBytes);
        }
    }
}

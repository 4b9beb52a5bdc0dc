package com.telemed.bench.support;

import java.util.List;

/** Percentiles of a list of samples in microseconds, printed in milliseconds. */
public final class Percentiles {

    private Percentiles() {
    }

    /** p50, p90, p99 and max, or "no samples". */
    public static String of(List<Long> micros) {
        if (micros.isEmpty()) {
            return "no samples";
        }
        return String.format("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms", percentile(micros, 50) / 1000.0,
                percentile(micros, 90) / 1000.0, percentile(micros, 99) / 1000.0, percentile(micros, 100) / 1000.0);
    }

    /** Nearest rank; values may be negative (a split at a wall-clock timestamp). */
    public static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return 0;
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}

package com.telemed.bench.support;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The heap of another JVM of this machine while a measurement runs, sampled by this JDK's
 * {@code jstat -gc <pid> <interval>}: one light process reading the JVM's performance counters
 * (hsperfdata), nothing attached to the JVM and no safepoint per sample (a {@code jcmd GC.heap_info}
 * every 200 ms would start a JVM per sample on a machine of two cores). Used heap is what the
 * generations hold at the sample, garbage not yet collected included; the old generation is what
 * young collections promoted.
 */
public final class HeapSampler implements AutoCloseable {

    /**
     * Peaks over the samples (MiB): used heap, and the generations' committed size at that peak; the
     * old generation's; and the collections during the sampling. Not the live set: with SerialGC
     * an array still in use at a young collection that does not fit a survivor space is promoted,
     * and stays in the old generation, dead, until a full collection ({@link Jcmd#liveHeap} gives
     * the live set).
     */
    public record Peak(int samples, double usedMiB, double oldMiB, double committedMiB, long youngGcs, long fullGcs,
                       double gcSeconds) {
        public String line() {
            return samples == 0 ? "no heap samples (jstat failed)"
                    : String.format("peak used %.0f MiB (old generation %.0f MiB) of %.0f MiB committed; %d young, %d full GCs,"
                            + " %.2f s in GC (%d samples)", usedMiB, oldMiB, committedMiB, youngGcs, fullGcs, gcSeconds, samples);
        }
    }

    private final Process jstat;
    private final Thread reader;
    private final Samples samples = new Samples();

    private HeapSampler(Process jstat) {
        this.jstat = jstat;
        this.reader = new Thread(this::read, "heap-sampler");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts sampling {@code pid} every {@code interval}. */
    public static HeapSampler start(long pid, Duration interval) throws Exception {
        String jstat = Path.of(System.getProperty("java.home"), "bin", "jstat").toString();
        return new HeapSampler(new ProcessBuilder(jstat, "-gc", Long.toString(pid), Long.toString(interval.toMillis()))
                .redirectErrorStream(true).start());
    }

    /** Waits (at most {@code cap}) until {@code count} samples were read; whether they were. */
    public boolean awaitSamples(int count, Duration cap) throws InterruptedException {
        return Waits.until(cap, () -> samples.peak().samples() >= count);
    }

    /** Stops sampling; the peaks since the start. */
    public Peak stop() throws InterruptedException {
        close();
        reader.join(5000);
        return samples.peak();
    }

    @Override
    public void close() {
        jstat.destroy();
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jstat.getInputStream()))) {
            for (String line; (line = out.readLine()) != null; ) {
                samples.accept(line);
            }
        } catch (Exception e) {
            // the process was stopped
        }
    }

    /**
     * jstat's lines as they come: its header names the columns (JDK 17: S0C S1C S0U S1U EC EU OC OU
     * MC MU CCSC CCSU YGC YGCT FGC FGCT CGC CGCT GCT, sizes in KiB); a line that is not numbers (its
     * message when the JVM is gone) is skipped.
     */
    static final class Samples {

        private static final double KIB_PER_MIB = 1024.0;

        private List<String> header;
        private int count;
        private double usedKib;
        private double oldKib;
        private double committedKib;
        private double[] first;
        private double[] last;

        synchronized void accept(String line) {
            String[] f = line.trim().split("\\s+");
            if (header == null) {
                if (line.contains("EU") && line.contains("OU")) {
                    header = List.of(f);
                }
                return;
            }
            try {
                double used = value(f, "S0U") + value(f, "S1U") + value(f, "EU") + value(f, "OU");
                double committed = value(f, "S0C") + value(f, "S1C") + value(f, "EC") + value(f, "OC");
                double old = value(f, "OU");
                double[] gcs = {value(f, "YGC"), value(f, "FGC"), value(f, "GCT")};
                count++;
                if (used > usedKib) {
                    usedKib = used;
                    committedKib = committed;
                }
                oldKib = Math.max(oldKib, old);
                if (first == null) {
                    first = gcs;
                }
                last = gcs;
            } catch (RuntimeException notASample) {
                // not a line of numbers
            }
        }

        synchronized Peak peak() {
            return new Peak(count, usedKib / KIB_PER_MIB, oldKib / KIB_PER_MIB, committedKib / KIB_PER_MIB,
                    first == null ? 0 : (long) (last[0] - first[0]), first == null ? 0 : (long) (last[1] - first[1]),
                    first == null ? 0 : last[2] - first[2]);
        }

        private double value(String[] fields, String column) {
            return Double.parseDouble(fields[header.indexOf(column)]);
        }
    }
}

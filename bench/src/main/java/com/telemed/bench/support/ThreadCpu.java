package com.telemed.bench.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where one JVM's CPU went between two moments, by thread, from /proc/&lt;pid&gt;/task (clock ticks of
 * 10 ms): threads grouped by name with their numbers blanked ({@code fulfilment-3} -> {@code fulfilment-N}; names as
 * the kernel clips them to 15 characters, {@code C2 CompilerThre}), so the work itself, the JIT compilers, the garbage
 * collector ({@code VM Thread} under SerialGC) and the I/O threads are told apart. Threads that ended
 * between the two moments are not counted.
 */
public final class ThreadCpu {

    private final long pid;
    private final Map<Long, Sample> before;

    private record Sample(String name, long ticks) {
    }

    private ThreadCpu(long pid, Map<Long, Sample> before) {
        this.pid = pid;
        this.before = before;
    }

    public static ThreadCpu start(long pid) {
        return new ThreadCpu(pid, sample(pid));
    }

    /** The groups that used at least {@code minShare} of the JVM's counted CPU, busiest first, e.g. "fulfilment-N 4.1 s". */
    public String describe(double minShare) {
        Map<String, Long> groups = usedByGroup();
        long total = groups.values().stream().mapToLong(Long::longValue).sum();
        long all = Math.max(1, total);
        Map<String, Long> sorted = new LinkedHashMap<>();
        groups.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        StringBuilder out = new StringBuilder(String.format("%.1f s:", total / 100.0));
        long rest = 0;
        for (Map.Entry<String, Long> group : sorted.entrySet()) {
            if ((double) group.getValue() / all >= minShare) {
                out.append(String.format(" %s %.1f s (%.0f %%);", group.getKey(), group.getValue() / 100.0, 100.0 * group.getValue() / all));
            } else {
                rest += group.getValue();
            }
        }
        return out.append(String.format(" others %.1f s", rest / 100.0)).toString();
    }

    /**
     * The share of the JVM's counted CPU since {@link #start} that its JIT compilers used (threads named
     * {@code C1 CompilerThre}, {@code C2 CompilerThre}): near 0 once the JIT has compiled what the load runs.
     */
    public static double jitShare(List<ThreadCpu> jvms) {
        long jit = 0;
        long total = 0;
        for (ThreadCpu jvm : jvms) {
            for (Map.Entry<String, Long> group : jvm.usedByGroup().entrySet()) {
                total += group.getValue();
                if (group.getKey().startsWith("C1 CompilerThre") || group.getKey().startsWith("C2 CompilerThre")) {
                    jit += group.getValue();
                }
            }
        }
        return total == 0 ? 0 : (double) jit / total;
    }

    /** Clock ticks each thread group used since {@link #start} (threads that ended meanwhile are not counted). */
    private Map<String, Long> usedByGroup() {
        Map<String, Long> groups = new HashMap<>();
        for (Map.Entry<Long, Sample> thread : sample(pid).entrySet()) {
            Sample was = before.get(thread.getKey());
            groups.merge(thread.getValue().name(), thread.getValue().ticks() - (was == null ? 0 : was.ticks()), Long::sum);
        }
        return groups;
    }

    private static Map<Long, Sample> sample(long pid) {
        Map<Long, Sample> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("(?<=[-#])\\d+|\\d+$", "N");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    threads.put(Long.parseLong(task.getFileName().toString()),
                            new Sample(name, Long.parseLong(f[11]) + Long.parseLong(f[12])));
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException | RuntimeException gone) {
            // no such process, or no /proc
        }
        return threads;
    }
}

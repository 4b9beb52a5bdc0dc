package com.telemed.bench.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code jcmd} of this JDK against another JVM (e.g. to start and stop a flight recording, or read its flags). */
public final class Jcmd {

    private static final Pattern MAX_HEAP = Pattern.compile("-XX:MaxHeapSize=(\\d+)");
    private static final Pattern BYTE_ARRAYS = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+\\[B\\b", Pattern.MULTILINE);
    private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)", Pattern.MULTILINE);

    /** What a JVM's heap held right after a full collection: every live object's bytes, and its byte arrays. */
    public record LiveHeap(long totalBytes, long byteArrays, long byteArrayBytes) {

        /** From {@code GC.class_histogram}'s output: its {@code [B} row and its {@code Total} row; null without a total. */
        static LiveHeap of(String histogram) {
            Matcher total = TOTAL.matcher(histogram);
            if (!total.find()) {
                return null;
            }
            Matcher bytes = BYTE_ARRAYS.matcher(histogram);
            boolean found = bytes.find();
            return new LiveHeap(Long.parseLong(total.group(2)), found ? Long.parseLong(bytes.group(1)) : 0,
                    found ? Long.parseLong(bytes.group(2)) : 0);
        }
    }

    private Jcmd() {
    }

    /** Runs it, output discarded; a failure is printed, not thrown. */
    public static void run(long pid, String... command) throws Exception {
        if (output(pid, command) == null) {
            System.out.println("  (jcmd " + String.join(" ", command) + " failed)");
        }
    }

    /** Runs it and returns what it printed; null when it failed. */
    public static String output(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        line.addAll(List.of(command));
        // To a file, not a pipe: a jcmd that hangs is still bounded by the wait below.
        Path out = Files.createTempFile("bench-jcmd-", ".txt");
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return null;
            }
            return process.exitValue() == 0 ? Files.readString(out) : null;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * The live heap by {@code GC.class_histogram}, which collects the whole heap first (a full,
     * stop-the-world collection of the target): null when jcmd failed.
     */
    public static LiveHeap liveHeap(long pid) throws Exception {
        String histogram = output(pid, "GC.class_histogram");
        return histogram == null ? null : LiveHeap.of(histogram);
    }

    /** The JVM's maximum heap in bytes ({@code -XX:MaxHeapSize}, what {@code -Xmx} sets), from {@code VM.flags}; -1 unknown. */
    public static long maxHeapBytes(long pid) throws Exception {
        String flags = output(pid, "VM.flags");
        Matcher m = flags == null ? null : MAX_HEAP.matcher(flags);
        return m != null && m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}

package com.telemed.bench.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Flight Recorder profile of running services over one measured round (jcmd {@code JFR.start}
 * with the {@code profile} settings, then {@code JFR.dump}), and where each one's CPU went: its
 * execution samples by what the sampled frame is part of (the PostgreSQL driver, Hibernate, Jackson,
 * Vert.x, the platform's own code...), and by the platform's methods a sample passed through
 * (inclusive). Execution samples are of threads running Java code: time in native code and in the
 * kernel is the process's CPU that {@link ProcessCpu} measures beside them.
 */
public final class JfrProfile {

    private static final String RECORDING = "bench-profile";
    /** Package prefixes to what a reader calls them, first match wins. */
    private static final Map<String, String> CATEGORIES = categories();

    private final Map<String, Long> pids;
    private final Path directory;

    private JfrProfile(Map<String, Long> pids, Path directory) {
        this.pids = pids;
        this.directory = directory;
    }

    /** Starts a recording in each named process; the files go to {@code directory}. */
    public static JfrProfile start(Map<String, Long> pids, Path directory) throws Exception {
        Files.createDirectories(directory);
        for (long pid : pids.values()) {
            Jcmd.run(pid, "JFR.start", "name=" + RECORDING, "settings=profile");
        }
        return new JfrProfile(new LinkedHashMap<>(pids), directory);
    }

    /** Dumps and stops each recording: the files, by process name. */
    public Map<String, Path> stop() throws Exception {
        Map<String, Path> files = new LinkedHashMap<>();
        for (Map.Entry<String, Long> process : pids.entrySet()) {
            Path file = directory.resolve(process.getKey() + ".jfr");
            Jcmd.run(process.getValue(), "JFR.dump", "name=" + RECORDING, "filename=" + file);
            Jcmd.run(process.getValue(), "JFR.stop", "name=" + RECORDING);
            if (Files.exists(file)) {
                files.put(process.getKey(), file);
            }
        }
        return files;
    }

    /** One process's samples: by category and by the platform's methods (inclusive), as shares of all its samples. */
    public record Breakdown(long samples, Map<String, Long> byCategory, Map<String, Long> byPlatformMethod) {

        /**
         * Printed with each share turned into milliseconds per event out of {@code cpuMsPerEvent} (the
         * process's measured CPU per event): categories first, then the {@code top} platform methods.
         */
        public String describe(double cpuMsPerEvent, int top) {
            StringBuilder out = new StringBuilder(String.format("  %d samples; %.2f ms CPU per event%n", samples, cpuMsPerEvent));
            byCategory.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).forEach(entry ->
                    out.append(String.format("    %5.1f %%  %6.3f ms  %s%n", share(entry.getValue()),
                            cpuMsPerEvent * entry.getValue() / Math.max(1, samples), entry.getKey())));
            out.append("    platform methods a sample passed through (inclusive):\n");
            byPlatformMethod.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                    .forEach(entry -> out.append(String.format("    %5.1f %%  %6.3f ms  %s%n", share(entry.getValue()),
                            cpuMsPerEvent * entry.getValue() / Math.max(1, samples), entry.getKey())));
            return out.toString();
        }

        private double share(long count) {
            return 100.0 * count / Math.max(1, samples);
        }
    }

    /**
     * Reads one recording's {@code jdk.ExecutionSample} events from {@code since} on. Start the recording
     * before a warm-up and count from the measured round: starting Flight Recorder's profile settings makes
     * the JVM throw compiled code away and compile it again, so a recording started at the round measures
     * the JIT instead (issue 23).
     */
    public static Breakdown breakdown(Path file, Instant since) throws Exception {
        return breakdown(file, since, Instant.MAX);
    }

    /** The samples from {@code since} (inclusive) to {@code until} (exclusive): one round of several in a recording. */
    public static Breakdown breakdown(Path file, Instant since, Instant until) throws Exception {
        long samples = 0;
        Map<String, Long> byCategory = new TreeMap<>();
        Map<String, Long> byMethod = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStartTime().isBefore(since)
                    || !event.getStartTime().isBefore(until)) {
                continue;
            }
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = stack.getFrames();
            byCategory.merge(category(frames.get(0).getMethod().getType().getName()), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String type = frame.getMethod().getType().getName();
                if (type.startsWith("com.telemed.") && !type.contains("$$")) {
                    String method = type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
                    if (seen.add(method)) {
                        byMethod.merge(method, 1L, Long::sum);
                    }
                }
            }
        }
        return new Breakdown(samples, byCategory, byMethod);
    }

    static String category(String type) {
        return CATEGORIES.entrySet().stream().filter(entry -> type.startsWith(entry.getKey())).map(Map.Entry::getValue)
                .findFirst().orElseGet(() -> {
                    int second = type.indexOf('.', type.indexOf('.') + 1);
                    return "other: " + (second > 0 ? type.substring(0, second) : type);
                });
    }

    private static Map<String, String> categories() {
        Map<String, String> categories = new LinkedHashMap<>();
        categories.put("com.telemed.", "platform code");
        categories.put("org.postgresql.", "PostgreSQL JDBC driver");
        categories.put("io.vertx.pgclient.", "Vert.x PostgreSQL client");
        categories.put("io.vertx.sqlclient.", "Vert.x PostgreSQL client");
        categories.put("org.hibernate.", "Hibernate ORM");
        categories.put("io.quarkus.hibernate.", "Hibernate ORM");
        categories.put("io.agroal.", "Agroal pool");
        categories.put("com.arjuna.", "Narayana transactions");
        categories.put("io.quarkus.narayana.", "Narayana transactions");
        categories.put("com.fasterxml.jackson.", "Jackson");
        categories.put("org.jboss.resteasy.", "Quarkus REST (server and client)");
        categories.put("io.quarkus.rest.", "Quarkus REST (server and client)");
        categories.put("io.quarkus.resteasy.", "Quarkus REST (server and client)");
        categories.put("io.vertx.", "Vert.x and Netty (HTTP, event loop)");
        categories.put("io.netty.", "Vert.x and Netty (HTTP, event loop)");
        categories.put("org.apache.kafka.", "Kafka client");
        categories.put("io.smallrye.reactive.messaging.", "SmallRye Reactive Messaging");
        categories.put("io.micrometer.", "metrics and traces (Micrometer, OpenTelemetry)");
        categories.put("io.opentelemetry.", "metrics and traces (Micrometer, OpenTelemetry)");
        categories.put("io.quarkus.opentelemetry.", "metrics and traces (Micrometer, OpenTelemetry)");
        categories.put("io.quarkus.micrometer.", "metrics and traces (Micrometer, OpenTelemetry)");
        categories.put("org.jboss.logmanager.", "logging");
        categories.put("org.jboss.logging.", "logging");
        categories.put("io.smallrye.", "SmallRye (config, context, fault tolerance, mutiny)");
        categories.put("io.quarkus.arc.", "CDI (ArC)");
        categories.put("io.quarkus.", "Quarkus other");
        categories.put("com.github.benmanes.caffeine.", "Caffeine cache");
        categories.put("sun.security.", "JDK crypto and TLS");
        categories.put("com.sun.crypto.", "JDK crypto and TLS");
        categories.put("javax.crypto.", "JDK crypto and TLS");
        categories.put("java.util.regex.", "JDK regex");
        categories.put("java.util.concurrent.", "JDK concurrency");
        categories.put("java.", "JDK other");
        categories.put("jdk.", "JDK other");
        categories.put("sun.", "JDK other");
        return categories;
    }
}

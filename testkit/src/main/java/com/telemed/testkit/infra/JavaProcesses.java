package com.telemed.testkit.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Child JVMs: how to start them, stop them and read the end of their log. */
public final class JavaProcesses {

    /** glibc's cap on its malloc arenas, which every child JVM gets ({@link #start}). */
    public static final String MALLOC_ARENA_MAX = "MALLOC_ARENA_MAX";

    /**
     * The JDK's class-data archive ({@code lib/server/classes.jsa}, some 12 MB resident in every JVM) mapped
     * at the address it was made for, not relocated to a random one ({@code ArchiveRelocationMode} is 1 by
     * default since 17.0.x, a diagnostic option): its read-only part (about 8 MB) then stays the file's clean
     * pages, shared by every JVM of the machine, where relocation makes each JVM's a private copy. ./stack's
     * ten JVMs (services, launcher, Kafka) use it: 50-60 MB less memory in all (PSS; each JVM's RSS is
     * unchanged, a shared page counting in full in each). Relocation is an address-space randomisation of the
     * archived metadata; ./stack is a developer's platform on one machine, and the Helm chart's pods keep the
     * default. The JVM falls back to relocating when that address is taken.
     */
    public static final List<String> JDK_ARCHIVE_SHARED = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0");

    private JavaProcesses() {
    }

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The classpath of this kit: its own classes plus every runtime dependency (broker included). */
    public static String kitClasspath() {
        try {
            Path ownLocation = Path.of(JavaProcesses.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return ownLocation + java.io.File.pathSeparator + kitDependencies();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The kit's runtime dependencies alone (jars of the local Maven repository), as its build wrote them. */
    static String kitDependencies() {
        try (var in = JavaProcesses.class.getResourceAsStream("/com/telemed/testkit/runtime.classpath")) {
            if (in == null) {
                throw new IllegalStateException("runtime.classpath missing: build the testkit module first");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs to completion, failing with the log's tail on a non-zero exit. */
    public static void run(List<String> command, Path log, long timeoutSeconds) {
        Process process = start(command, log, java.util.Map.of());
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command.subList(command.size() - 3, command.size())));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("exit " + process.exitValue() + ", log " + log + ":\n" + tail(log, 30));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public static Process start(List<String> command, Path log, java.util.Map<String, String> environment) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            // glibc's malloc keeps up to eight arenas per core for a process's threads, each holding on to
            // what it once allocated: two are plenty for a JVM (whose heap is its own) and save tens of MB of
            // resident memory per JVM (issue 44). A caller's environment may name another value.
            builder.environment().put(MALLOC_ARENA_MAX, "2");
            builder.environment().putAll(environment);
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    /** Asks the process to stop (SIGTERM), and kills it when it has not within the grace period. */
    public static void stop(Process process, long graceSeconds) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * Kills the process as a crash would (SIGKILL: no shutdown hook runs, nothing is flushed or
     * handed back) and waits until it is gone, so its ports and file locks are free when this
     * returns. Returns its exit code (137 = 128 + 9 for a JVM killed this way; the earlier code if
     * it had already exited).
     */
    public static int kill(Process process, long waitSeconds) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(waitSeconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException("process " + process.pid() + " still running " + waitSeconds
                        + " s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for process " + process.pid() + " to die");
        }
        return process.exitValue();
    }

    public static String tail(Path log, int lines) {
        try {
            if (!Files.exists(log)) {
                return "(no log)";
            }
            List<String> all = Files.readAllLines(log);
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException | RuntimeException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}

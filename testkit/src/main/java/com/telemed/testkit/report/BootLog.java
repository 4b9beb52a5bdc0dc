package com.telemed.testkit.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * One line for each expensive start a test JVM makes, for {@link TestTimes}: a Quarkus boot, a
 * whole platform, a service JVM started beside one, a {@code ./stack up}, a set of servers
 * (PostgreSQL, Kafka, SMTP). The build names the file with the system property
 * {@value #PROPERTY} (the parent pom sets it for surefire and failsafe to
 * {@code target/test-boots.tsv} of the module); without it nothing is written, so {@code ./stack}
 * and the benchmarks, which share this code, leave no trace.
 *
 * <p>A line is {@code build TAB kind TAB what TAB seconds}, appended with one write (lines of
 * concurrent writers in one JVM do not mix). {@code build} is the Maven build's start
 * ({@value #BUILD_PROPERTY}): the first line of a new build empties the file, so that it holds one
 * build's boots, whichever of the module's test JVMs (surefire's, then failsafe's) wrote them.
 */
public final class BootLog {

    public static final String PROPERTY = "telemed.test.boot-log";
    public static final String BUILD_PROPERTY = "telemed.test.build";

    /** What is counted. */
    public enum Kind {
        /** A Quarkus application started by {@code @QuarkusTest} (one per application configuration). */
        QUARKUS,
        /** The services started together (the whole platform). */
        PLATFORM,
        /** One more service JVM beside a running platform: a replica, or a service restarted with other settings. */
        SERVICE,
        /** {@code ./stack up} run by a test. */
        STACK,
        /** PostgreSQL, Kafka and an SMTP server started together for a test JVM. */
        SERVERS;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private BootLog() {
    }

    /** Appends one line when the build asked for the log; never fails the caller. */
    public static void record(Kind kind, String what, long startedNanos) {
        String file = System.getProperty(PROPERTY, "").strip();
        if (file.isEmpty()) {
            return;
        }
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        String build = System.getProperty(BUILD_PROPERTY, "-").strip().replace('\t', ' ');
        String line = build + "\t" + kind.label() + "\t" + what.replace('\t', ' ').replace('\n', ' ') + "\t"
                + String.format(Locale.ROOT, "%.1f", seconds) + "\n";
        try {
            Path path = Path.of(file);
            Files.createDirectories(path.toAbsolutePath().getParent());
            synchronized (BootLog.class) {
                boolean sameBuild = Files.isRegularFile(path)
                        && Files.readAllLines(path, StandardCharsets.UTF_8).stream().findFirst()
                                .map(first -> first.startsWith(build + "\t")).orElse(false);
                if (sameBuild) {
                    Files.writeString(path, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                } else {
                    Files.writeString(path, line, StandardCharsets.UTF_8);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // A count missing from the timing report is not a test failure.
        }
    }
}

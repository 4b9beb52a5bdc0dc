package com.telemed.testkit.infra;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ./stack's JVMs share the JDK's class-data archive ({@link JavaProcesses#JDK_ARCHIVE_SHARED}): with those
 * options most of the archive (its read-only part) is the same clean pages in two JVMs, where by default each
 * JVM relocates it into pages of its own. What the option saves is counted by bench/footprint.sh (PSS); this
 * test holds the JDK to the behaviour the saving rests on.
 */
class JdkArchiveSharingTest {

    private static final Path JDK_ARCHIVE = Path.of(System.getProperty("java.home"), "lib", "server", "classes.jsa");

    @TempDir
    Path logs;

    @Test
    void twoJvmsShareMostOfTheJdkArchiveOnlyWithTheOption() throws Exception {
        assumeTrue(Files.isRegularFile(JDK_ARCHIVE) && Files.isReadable(Path.of("/proc/self/smaps")),
                "a JDK with its default class-data archive, on Linux");

        // Mapped where it was made: its read-only part (two thirds) the file's clean pages, in both JVMs.
        Mapping shared = secondOfTwo(JavaProcesses.JDK_ARCHIVE_SHARED);
        assertTrue(shared.rssKb() > 4096 && shared.sharedCleanKb() * 100 >= shared.rssKb() * 60,
                "most of the archive is pages both JVMs share: " + shared);

        // Relocated (the default): the JVM patches every pointer in it, so each JVM's copy is its own.
        Mapping relocated = secondOfTwo(List.of());
        assertTrue(relocated.rssKb() > 4096 && relocated.privateKb() * 100 >= relocated.rssKb() * 60,
                "by default most of the archive is each JVM's own: " + relocated);
    }

    /** The archive's mappings in the second of two JVMs started with {@code options}, both alive. */
    private Mapping secondOfTwo(List<String> options) throws Exception {
        List<Process> processes = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                List<String> command = new ArrayList<>(List.of(JavaProcesses.javaExecutable(), "-Xmx16m", "-XX:+UseSerialGC"));
                command.addAll(options);
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), WaitForInput.class.getName()));
                processes.add(JavaProcesses.start(command, logs.resolve("jvm-" + options.size() + "-" + i + ".log"), Map.of()));
            }
            // Mapped at once; its pages are touched as the JVM's start links its classes.
            for (Process process : processes) {
                await().atMost(Duration.ofSeconds(30)).until(() -> jdkArchive(process.pid()).rssKb() > 4096);
            }
            return jdkArchive(processes.get(1).pid());
        } finally {
            for (Process process : processes) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** The JDK archive's pages in a process, over all its mappings of the file ({@code /proc/<pid>/smaps}). */
    static Mapping jdkArchive(long pid) throws IOException {
        Map<String, Long> sums = new HashMap<>();
        boolean inArchive = false;
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "smaps"))) {
            if (MAPPING.matcher(line).lookingAt()) {
                inArchive = line.endsWith(JDK_ARCHIVE.toString());
            } else if (inArchive && line.endsWith(" kB")) {
                String[] parts = line.split("\\s+");
                sums.merge(parts[0].substring(0, parts[0].length() - 1), Long.parseLong(parts[1]), Long::sum);
            }
        }
        return new Mapping(sums.getOrDefault("Rss", 0L), sums.getOrDefault("Shared_Clean", 0L),
                sums.getOrDefault("Private_Clean", 0L) + sums.getOrDefault("Private_Dirty", 0L));
    }

    private static final Pattern MAPPING = Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    record Mapping(long rssKb, long sharedCleanKb, long privateKb) {
    }

    /** A JVM that has started, mapped its archive, and waits to be stopped. */
    public static final class WaitForInput {
        public static void main(String[] args) throws IOException {
            while (System.in.read() >= 0) {
                // until the test stops this JVM
            }
        }
    }
}

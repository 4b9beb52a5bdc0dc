package com.telemed.testkit.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dynamic class-data archive of the test brokers' JVM (JDK's AppCDS): the first broker of a
 * machine's cache to stop writes the classes it loaded ({@code -XX:ArchiveClassesAtExit}), every
 * later broker and storage format maps them ({@code -XX:SharedArchiveFile}) instead of loading and
 * verifying them from the jars again: about a fifth of a broker's start-up CPU (measured on two
 * cores: 4.6 -> 3.6 CPU-seconds in its first 20 s; a storage format's too), in a build that starts
 * some twenty-five. The archive lives in the platform cache ({@link PlatformCache}), named by the JDK and the
 * classpath, which are what it was made for (the JVM itself refuses one whose jars changed, and then
 * runs without it). One JVM at a time makes it: a claim file beside it, taken over when older than
 * {@link #CLAIM_TIMEOUT} (a broker killed before it stopped leaves one behind).
 */
final class KafkaClassData {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClassData.class);

    /** The brokers' classpath: the kit's runtime dependencies, all jars (a folder would disable the archive). */
    static final String CLASSPATH = JavaProcesses.kitDependencies();
    private static final Duration CLAIM_TIMEOUT = Duration.ofMinutes(10);
    /** The JVM's notes on what it archives (hundreds of lines at a dump) stay out of the broker's log. */
    private static final String QUIET = "-Xlog:cds=off";

    /** What one broker start does about the archive. */
    interface Archiving {
        Archiving NONE = new Archiving() {
        };

        /** The JVM options for it. */
        default List<String> options() {
            return List.of();
        }

        /** The broker stopped (its JVM exited normally): a made archive is moved into place. */
        default void completed() {
        }

        /** The broker was killed: nothing usable was written. */
        default void abandoned() {
        }
    }

    private KafkaClassData() {
    }

    static Path archive() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n" + CLASSPATH)
                    .getBytes(StandardCharsets.UTF_8));
            String key = HexFormat.of().formatHex(digest.digest()).substring(0, 16);
            return PlatformCache.directory().resolve("class-data").resolve("kafka-" + key + ".jsa");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** For a JVM that only reads: the archive when it exists. */
    static List<String> use() {
        Path archive = archive();
        return Files.isRegularFile(archive) ? List.of("-XX:SharedArchiveFile=" + archive, QUIET) : List.of();
    }

    /**
     * For a broker's start: the archive when it exists; otherwise, when no other JVM is making it,
     * the options that make it at this broker's exit.
     */
    static Archiving claim() {
        return claim(archive());
    }

    static Archiving claim(Path archive) {
        if (Files.isRegularFile(archive)) {
            List<String> options = List.of("-XX:SharedArchiveFile=" + archive, QUIET);
            return new Archiving() {
                @Override
                public List<String> options() {
                    return options;
                }
            };
        }
        Path claim = archive.resolveSibling(archive.getFileName() + ".claim");
        try {
            Files.createDirectories(archive.getParent());
            try {
                Files.createFile(claim);
            } catch (FileAlreadyExistsException taken) {
                if (Files.getLastModifiedTime(claim).toInstant().isAfter(Instant.now().minus(CLAIM_TIMEOUT))) {
                    return Archiving.NONE;
                }
                Files.setLastModifiedTime(claim, java.nio.file.attribute.FileTime.from(Instant.now()));
            }
        } catch (IOException e) {
            LOG.debug("No class-data archive for the broker: {}", e.toString());
            return Archiving.NONE;
        }
        Path part = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + "."
                + System.nanoTime() + ".part");
        return new Archiving() {
            @Override
            public List<String> options() {
                return List.of("-XX:ArchiveClassesAtExit=" + part, QUIET);
            }

            @Override
            public void completed() {
                try {
                    if (Files.isRegularFile(part) && Files.size(part) > 0) {
                        Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    }
                } catch (IOException e) {
                    LOG.debug("Class-data archive not kept: {}", e.toString());
                } finally {
                    abandoned();
                }
            }

            @Override
            public void abandoned() {
                try {
                    Files.deleteIfExists(part);
                    Files.deleteIfExists(claim);
                } catch (IOException e) {
                    LOG.debug("Class-data claim not removed: {}", e.toString());
                }
            }
        };
    }
}

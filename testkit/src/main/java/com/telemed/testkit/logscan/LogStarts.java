package com.telemed.testkit.logscan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Where this JVM's part of each log begins. The platform appends to the logs of a log directory
 * across runs (until {@code mvn clean}); the log scan reads only what was written since this JVM
 * first started a platform there, so that an old run's lines never fail a new one.
 */
public final class LogStarts {

    private static final Map<Path, Long> STARTS = new ConcurrentHashMap<>();
    private static final Map<Path, Boolean> MARKED = new ConcurrentHashMap<>();

    private LogStarts() {
    }

    /** Notes the current end of every log in the directory, the first time this JVM writes there. */
    public static void markBeforeWriting(Path directory) {
        Path dir = directory.toAbsolutePath().normalize();
        if (MARKED.putIfAbsent(dir, true) != null || !Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                STARTS.putIfAbsent(file.toAbsolutePath().normalize(), Files.size(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The byte offset this JVM's part of the file starts at (0 for a file it did not find there). */
    public static long start(Path file) {
        return STARTS.getOrDefault(file.toAbsolutePath().normalize(), 0L);
    }
}

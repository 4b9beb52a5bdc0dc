package com.telemed.testkit.infra;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binaries are extracted into the cache completely or not at all, whatever the heap, and a
 * leftover of an interrupted or killed extraction never stops the next one.
 */
class PostgresBinariesTest {

    @TempDir
    Path cache;
    @TempDir
    Path logs;

    @Test
    void extractsCompletelyOnceAndReusesTheFolder() throws Exception {
        PostgresBinaries binaries = PostgresBinaries.prepare(cache);
        Path folder = binaries.directory();
        assertTrue(PostgresBinaries.isComplete(folder));
        for (String program : List.of("initdb", "pg_ctl", "postgres")) {
            assertTrue(Files.isExecutable(folder.resolve("bin").resolve(program)), program);
        }
        assertTrue(Files.isSymbolicLink(folder.resolve("lib/libicudata.so")));
        assertTrue(Files.isRegularFile(folder.resolve("lib/libicudata.so")), "the link resolves inside the folder");
        assertEquals(List.of(folder.getFileName().toString()), children(cache));

        FileTime extractedAt = Files.getLastModifiedTime(folder.resolve(PostgresBinaries.COMPLETE_MARKER));
        assertEquals(folder, PostgresBinaries.prepare(cache).directory());
        assertEquals(extractedAt, Files.getLastModifiedTime(folder.resolve(PostgresBinaries.COMPLETE_MARKER)),
                "a complete folder is used as it is");
    }

    @Test
    void redoesAFolderLeftWithoutItsMarkerAndRemovesPartialSiblings() throws Exception {
        Path folder = PostgresBinaries.prepare(cache).directory();
        Files.delete(folder.resolve(PostgresBinaries.COMPLETE_MARKER));
        Files.writeString(folder.resolve("bin/postgres"), "truncated");
        Path partial = cache.resolve(folder.getFileName() + ".partial-4242");
        Files.createDirectories(partial.resolve("lib"));
        Files.writeString(partial.resolve("lib/libicudata.so"), "half");

        PostgresBinaries.prepare(cache);

        assertTrue(PostgresBinaries.isComplete(folder));
        assertTrue(Files.size(folder.resolve("bin/postgres")) > 1_000_000, "bin/postgres extracted again");
        assertFalse(Files.exists(partial));
        assertEquals(List.of(folder.getFileName().toString()), children(cache));
    }

    @Test
    void extractsWithinASmallHeap() throws Exception {
        Process child = extractInChildJvm("-Xmx24m");
        assertTrue(child.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), JavaProcesses.tail(logs.resolve("child.log"), 30));
        assertTrue(PostgresBinaries.isComplete(PostgresBinaries.prepare(cache).directory()));
    }

    @Test
    void aKilledExtractionLeavesNothingThatIsTakenForComplete() throws Exception {
        Process child = extractInChildJvm("-Xmx64m");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                .until(() -> children(cache).stream().anyMatch(name -> name.contains(".partial-")));
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertTrue(child.exitValue() != 0, "killed during the extraction");
        String killedIn = children(cache).stream().filter(name -> name.contains(".partial-")).findFirst().orElseThrow();

        Path folder = PostgresBinaries.prepare(cache).directory();

        assertTrue(PostgresBinaries.isComplete(folder));
        assertFalse(Files.exists(cache.resolve(killedIn)));
    }

    @Test
    void concurrentJvmsExtractOnce() throws Exception {
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            children.add(extractInChildJvm("-Xmx64m"));
        }
        for (Process child : children) {
            assertTrue(child.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue(), JavaProcesses.tail(logs.resolve("child.log"), 30));
        }
        Path folder = PostgresBinaries.prepare(cache).directory();
        assertTrue(PostgresBinaries.isComplete(folder));
        assertEquals(List.of(folder.getFileName().toString()), children(cache));
    }

    @Test
    void theCacheIsTheConfiguredFolderElseTheCheckoutsElseTheHomes(@TempDir Path checkout) throws Exception {
        Path home = Path.of("/home/someone");
        assertEquals(Path.of("/srv/cache"), PlatformCache.directory(Map.of(PlatformCache.VARIABLE, "/srv/cache"), checkout, home));
        Files.createFile(checkout.resolve("stack"));
        Files.createDirectories(checkout.resolve("testkit"));
        Files.createDirectories(checkout.resolve("members-service/target"));
        assertEquals(checkout.resolve(".stack/cache"),
                PlatformCache.directory(Map.of(), checkout.resolve("members-service/target"), home));
        assertEquals(home.resolve(".cache/telemed-platform"), PlatformCache.directory(Map.of(), Path.of("/"), home));
    }

    private Process extractInChildJvm(String heap) {
        return JavaProcesses.start(List.of(JavaProcesses.javaExecutable(), heap, "-XX:+UseSerialGC",
                "-cp", JavaProcesses.kitClasspath(), PostgresBinaries.class.getName(), cache.toString()),
                logs.resolve("child.log"), Map.of());
    }

    private static List<String> children(Path folder) throws Exception {
        try (Stream<Path> list = Files.list(folder)) {
            return list.map(path -> path.getFileName().toString())
                    .filter(name -> !name.equals(".extract.lock"))
                    .sorted().toList();
        }
    }
}

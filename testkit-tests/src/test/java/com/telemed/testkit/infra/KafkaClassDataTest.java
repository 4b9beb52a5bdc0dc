package com.telemed.testkit.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The brokers' class-data archive: one maker at a time, moved into place only when its JVM stopped. */
class KafkaClassDataTest {

    @TempDir
    Path cache;

    private Path archive() {
        return cache.resolve("class-data/kafka-0123456789abcdef.jsa");
    }

    private static Path partOf(KafkaClassData.Archiving making) {
        String option = making.options().get(0);
        assertTrue(option.startsWith("-XX:ArchiveClassesAtExit="), option);
        return Path.of(option.substring("-XX:ArchiveClassesAtExit=".length()));
    }

    @Test
    void theFirstBrokerMakesItAndTheNextOnesUseIt() throws Exception {
        KafkaClassData.Archiving first = KafkaClassData.claim(archive());
        Path part = partOf(first);
        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + part, "-Xlog:cds=off"), first.options());
        assertEquals(archive().getParent(), part.getParent());
        assertSame(KafkaClassData.Archiving.NONE, KafkaClassData.claim(archive()), "a second maker while the first runs");

        Files.write(part, new byte[] {1, 2, 3}); // what the JVM writes at its exit
        first.completed();
        assertTrue(Files.isRegularFile(archive()));
        assertFalse(Files.exists(part));
        assertFalse(Files.exists(archive().resolveSibling(archive().getFileName() + ".claim")));
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive(), "-Xlog:cds=off"), KafkaClassData.claim(archive()).options());
    }

    @Test
    void aKilledMakerLeavesNothingAndAnotherMakesIt() throws Exception {
        KafkaClassData.Archiving killed = KafkaClassData.claim(archive());
        Files.write(partOf(killed), new byte[] {1}); // cut off mid-write
        killed.abandoned();
        assertFalse(Files.exists(archive()));
        assertFalse(Files.exists(partOf(killed)));
        assertTrue(partOf(KafkaClassData.claim(archive())).getFileName().toString().endsWith(".part"));
    }

    @Test
    void aMakerThatStoppedWithoutWritingLeavesNoArchive() throws Exception {
        KafkaClassData.Archiving stopped = KafkaClassData.claim(archive());
        stopped.completed();
        assertFalse(Files.exists(archive()));
        assertEquals(1, KafkaClassData.claim(archive()).options().size() - 1, "free to be made again");
    }

    @Test
    void aClaimLeftByAMakerThatDiedIsTakenOverAfterTenMinutes() throws Exception {
        KafkaClassData.claim(archive());
        Path claim = archive().resolveSibling(archive().getFileName() + ".claim");
        assertSame(KafkaClassData.Archiving.NONE, KafkaClassData.claim(archive()));
        Files.setLastModifiedTime(claim, FileTime.from(Instant.now().minus(Duration.ofMinutes(11))));
        partOf(KafkaClassData.claim(archive()));
    }
}

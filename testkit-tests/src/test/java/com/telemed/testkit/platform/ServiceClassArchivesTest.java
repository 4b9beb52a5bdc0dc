package com.telemed.testkit.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ./stack's class-data archives per service: made at the exit of a service's own JVM while there is no
 * current one, used once there is, never made by a replica, kept only after an exit that was not a kill.
 */
class ServiceClassArchivesTest {

    @TempDir
    Path folder;

    private final Instant built = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);

    private Path application() throws Exception {
        Path jar = folder.resolve("requests-service/target/quarkus-app/quarkus-run.jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, new byte[] {1});
        Files.setLastModifiedTime(jar, FileTime.from(built));
        return jar;
    }

    @Test
    void withoutAnArchiveTheServicesOwnJvmMakesItAtItsExitAndAReplicaRunsWithout() throws Exception {
        ServiceClassArchives archives = new ServiceClassArchives(folder.resolve("class-data"));
        Path application = application();

        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + folder.resolve("class-data/requests-service.jsa.part"), "-Xlog:cds=off"),
                archives.options(PlatformService.REQUESTS, application, true));
        assertEquals(List.of(), archives.options(PlatformService.REQUESTS, application, false));
    }

    @Test
    void aMadeArchiveIsMovedIntoPlaceAfterAStopAndThenUsed() throws Exception {
        ServiceClassArchives archives = new ServiceClassArchives(folder.resolve("class-data"));
        Path application = application();
        archives.options(PlatformService.REQUESTS, application, true);
        Files.write(folder.resolve("class-data/requests-service.jsa.part"), new byte[] {1, 2});

        archives.kept(PlatformService.REQUESTS, false);

        Path archive = folder.resolve("class-data/requests-service.jsa");
        assertTrue(Files.isRegularFile(archive));
        assertFalse(Files.exists(folder.resolve("class-data/requests-service.jsa.part")));
        List<String> using = List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off");
        assertEquals(using, archives.options(PlatformService.REQUESTS, application, true));
        assertEquals(using, archives.options(PlatformService.REQUESTS, application, false), "a replica uses it too");
    }

    @Test
    void aKilledJvmsArchiveIsThrownAway() throws Exception {
        ServiceClassArchives archives = new ServiceClassArchives(folder.resolve("class-data"));
        archives.options(PlatformService.REQUESTS, application(), true);
        Files.write(folder.resolve("class-data/requests-service.jsa.part"), new byte[] {1, 2});

        archives.kept(PlatformService.REQUESTS, true);

        assertFalse(Files.exists(folder.resolve("class-data/requests-service.jsa")));
        assertFalse(Files.exists(folder.resolve("class-data/requests-service.jsa.part")));
    }

    @Test
    void anArchiveOlderThanTheBuildIsMadeAgain() throws Exception {
        ServiceClassArchives archives = new ServiceClassArchives(folder.resolve("class-data"));
        Path application = application();
        Path archive = Files.createDirectories(folder.resolve("class-data")).resolve("requests-service.jsa");
        Files.write(archive, new byte[] {1});
        Files.setLastModifiedTime(archive, FileTime.from(built.minus(Duration.ofMinutes(5))));

        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + folder.resolve("class-data/requests-service.jsa.part"), "-Xlog:cds=off"),
                archives.options(PlatformService.REQUESTS, application, true));
    }

    @Test
    void theOptionsOfAPlatformWithArchivesFollowTheServicesOwnOptions() throws Exception {
        application();
        PlatformOptions options = new PlatformOptions(folder, folder, PlatformOptions.randomPorts(), List.of("-Xmx160m"), Map.of(),
                Duration.ofSeconds(5)).withClassArchives(folder.resolve("class-data"));

        assertEquals(List.of("/usr/bin/java", "-Xmx160m",
                        "-XX:ArchiveClassesAtExit=" + folder.resolve("class-data/requests-service.jsa.part"), "-Xlog:cds=off",
                        "-jar", "app.jar"),
                options.commandOf(PlatformService.REQUESTS, "/usr/bin/java", List.of("-jar", "app.jar"), true));
        assertEquals(List.of("/usr/bin/java", "-Xmx160m", "-jar", "app.jar"),
                options.commandOf(PlatformService.REQUESTS, "/usr/bin/java", List.of("-jar", "app.jar")), "a replica's");
    }
}

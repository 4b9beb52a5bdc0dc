package com.telemed.testkit.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each service's JVM options: its module named where the options say {module}, an archive only once it exists. */
class PlatformJvmOptionsTest {

    @TempDir
    Path archives;

    @Test
    void aServicesArchiveIsNamedOnlyOnceItExists() throws Exception {
        List<String> options = List.of("-Xmx160m", "-XX:SharedArchiveFile=" + archives.resolve("{module}.jsa"),
                "-Xlog:cds=off", "-Dlog=" + archives.resolve("{module}.log"));
        assertEquals(List.of("-Xmx160m", "-Xlog:cds=off", "-Dlog=" + archives.resolve("requests-service.log")),
                PlatformOptions.jvmOptionsOf(options, PlatformService.REQUESTS));

        Files.write(archives.resolve("requests-service.jsa"), new byte[] {1});
        assertEquals(List.of("-Xmx160m", "-XX:SharedArchiveFile=" + archives.resolve("requests-service.jsa"), "-Xlog:cds=off",
                "-Dlog=" + archives.resolve("requests-service.log")), PlatformOptions.jvmOptionsOf(options, PlatformService.REQUESTS));
        assertEquals(List.of("-Xmx160m", "-Xlog:cds=off", "-Dlog=" + archives.resolve("gateway.log")),
                PlatformOptions.jvmOptionsOf(options, PlatformService.GATEWAY), "the gateway's archive is not made yet");
    }

    @Test
    void makingAnArchiveIsNamedPerModule() {
        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + archives.resolve("webhook-service.jsa.part")),
                PlatformOptions.jvmOptionsOf(List.of("-XX:ArchiveClassesAtExit=" + archives.resolve("{module}.jsa.part")),
                        PlatformService.WEBHOOK));
    }

    @Test
    void aLauncherComesBeforeJavaAndItsOptions() {
        PlatformOptions options = new PlatformOptions(archives, archives, PlatformOptions.randomPorts(),
                List.of("-Xmx160m", "-Dlog=" + archives.resolve("{module}.log")), Map.of(), Duration.ofSeconds(5));
        assertEquals(List.of("/usr/bin/java", "-Xmx160m", "-Dlog=" + archives.resolve("members-service.log"), "-jar", "app.jar"),
                options.commandOf(PlatformService.MEMBERS, "/usr/bin/java", List.of("-jar", "app.jar")));

        assertEquals(List.of("/usr/bin/nice", "-n", "19", "/usr/bin/java", "-Xmx160m", "-Dlog=" + archives.resolve("web-service.log"),
                "-jar", "app.jar"), options.withLauncher(List.of("/usr/bin/nice", "-n", "19"))
                .commandOf(PlatformService.WEB, "/usr/bin/java", List.of("-jar", "app.jar")));
    }
}

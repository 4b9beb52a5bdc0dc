package com.telemed.e2e;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import com.telemed.testkit.platform.PlatformStartException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A platform that cannot start says which service failed and shows the end of its log. */
@Execution(ExecutionMode.CONCURRENT)
class PlatformStartFailureIT {

    private static final String PART = ".part";
    /**
     * Each service fails at its database within seconds when it gets the cores; beside the
     * sequence's busiest class and a niced ./stack on a loaded machine it may get few for a minute,
     * and a wait cut before it printed anything would leave no log to show.
     */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(600);
    /**
     * The failing platform's eight JVMs run at the lowest CPU priority ({@code nice -n 19}), below
     * the niced {@code ./stack} of StackScriptIT (10) and far below the sequence: at the usual
     * priority, beside RequestsReplicasIT, they took most of the cores its restart with a replica
     * needed (71 s for a start that takes 4 alone). At 19 they take the cores the others leave idle.
     * coreutils' nice; without it they run at the usual priority.
     */
    private static final String NICE = "/usr/bin/nice";

    @Test
    void namesTheServiceThatDidNotStartWithItsLog() throws Exception {
        Path root = RunningPlatform.projectRoot();
        List<String> jvm = new ArrayList<>(PlatformOptions.TEST_JVM_OPTIONS);
        // Every service is pointed at a database port where nothing listens, and at no broker: on the
        // servers the JVM's other platforms share, it touches none of their databases and topics.
        jvm.add("-Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:1/nowhere");
        jvm.add("-Dkafka.bootstrap.servers=127.0.0.1:1");
        // Each JVM leaves a class-data archive of what it loaded when it exits (the failure stops
        // them all): the shared platform's later restarts and replicas start from them
        // (RunningPlatform.classArchives()). Written beside their place, moved in once complete.
        Path archives = Files.createDirectories(RunningPlatform.classArchives());
        jvm.add("-XX:ArchiveClassesAtExit=" + archives.resolve(PlatformOptions.MODULE + ".jsa" + PART));
        jvm.add("-Xlog:cds=off");
        Infrastructure infrastructure = Infrastructure.shared();
        PlatformOptions options = new PlatformOptions(root, Files.createTempDirectory("failing-platform-"), PlatformOptions.randomPorts(),
                jvm, Map.of(), READY_TIMEOUT);
        if (Files.isExecutable(Path.of(NICE))) {
            options = options.withLauncher(List.of(NICE, "-n", "19"));
        }
        PlatformOptions failing = options;
        PlatformStartException failure = assertThrows(PlatformStartException.class, () -> Platform.start(infrastructure, failing));
        for (PlatformService service : PlatformService.values()) {
            Path made = archives.resolve(service.module() + ".jsa" + PART);
            if (Files.isRegularFile(made)) {
                Files.move(made, archives.resolve(service.module() + ".jsa"), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
        }
        String message = failure.getMessage();
        assertTrue(List.of(PlatformService.values()).stream().anyMatch(s -> message.startsWith(s.module() + " ")), message);
        assertTrue(message.contains("exited with code") || message.contains("is not ready after"), message);
        assertTrue(message.contains("last lines of"), message);
        assertTrue(message.lines().count() > 3, "the log's tail is included: " + message);
    }
}

package com.telemed.testkit.production;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.JavaProcesses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A service's packaged build ({@code java -jar target/quarkus-app/quarkus-run.jar}, Quarkus's prod
 * profile, as a deployment runs it) started with exactly the environment a case gives: whether it
 * refuses to start (platform-commons' {@code ProductionSettings}: exit code 1, one line naming every
 * setting at fault, printed before anything else) or starts and becomes ready. Used by the services'
 * {@code ProductionStartIT}.
 */
public final class PackagedStart {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path APPLICATION = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final String SUFFIX = ". Development values apply only under the dev, test and local profiles.";
    /** Prefixes of the build's own environment variables that a case must not inherit. */
    private static final Set<String> INHERITED = Set.of("QUARKUS_", "PLATFORM_", "KAFKA_", "SMTP_", "WEBHOOK_", "ATTACHMENT_",
            "SERVICE_");

    /** Exit code and output of a start that must fail. */
    public record Refused(int exitCode, List<String> output) {
    }

    private PackagedStart() {
    }

    /**
     * The JVM a case runs: a deployment's (the prod profile, the packaged jar, a small heap) with the
     * serial collector and the client compiler only, as the test platforms' JVMs (testkit's
     * {@code PlatformOptions.TEST_JVM_OPTIONS}): a start that lives seconds beside three other
     * modules' tests spends less CPU on garbage collection threads and C2 compilations it never
     * uses. Neither changes what the application reads or prints.
     */
    private static ProcessBuilder packaged(Map<String, String> environment, Path log) {
        assertTrue(Files.isRegularFile(APPLICATION), APPLICATION + " is built by the package phase");
        ProcessBuilder builder = new ProcessBuilder(JavaProcesses.javaExecutable(), "-Xmx128m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-jar", APPLICATION.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // Nothing of the build's own environment: only what the case sets.
        builder.environment().keySet().removeIf(name -> INHERITED.stream().anyMatch(name::startsWith));
        builder.environment().putAll(environment);
        return builder;
    }

    private static Path log(String name) throws IOException {
        return Files.createDirectories(Path.of("target/production-start")).resolve(name + ".log");
    }

    /** Starts the build and waits (60 s at most) for it to exit. */
    public static Refused refusedStart(String name, Map<String, String> environment) throws Exception {
        Path log = log(name);
        Process process = packaged(environment, log).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(name + ": still running after 60 s; " + JavaProcesses.tail(log, 20));
        }
        return new Refused(process.exitValue(), Files.readAllLines(log).stream().filter(line -> !line.isBlank()).toList());
    }

    /** Exit code 1 and, as the only output, the one line naming exactly these settings. */
    public static void assertRefused(Refused refused, String... settings) {
        String expected = "Refusing to start in production: " + String.join("; ", settings) + SUFFIX;
        assertEquals(1, refused.exitCode(), String.join("\n", refused.output()));
        assertEquals(List.of(expected), refused.output());
    }

    /**
     * Starts the build, waits until {@code /q/health/ready} answers 200 on its management port (90 s at
     * most), then stops it; returns what it printed (its non-blank lines). Unless the case sets them, the
     * management interface gets a free port on 127.0.0.1 ({@code QUARKUS_MANAGEMENT_PORT},
     * {@code QUARKUS_MANAGEMENT_HOST}): a deployment's 0.0.0.0:9000 would collide between modules tested side by side.
     */
    public static List<String> assertStartsReady(String name, Map<String, String> environment) throws Exception {
        return assertStartsReady(name, environment, () -> {
        });
    }

    /** What a case does with the started build while it runs (calls it over HTTP). */
    @FunctionalInterface
    public interface WhileReady {
        void run() throws Exception;
    }

    /**
     * As {@link #assertStartsReady(String, Map)}, running {@code whileReady} once the build is ready
     * and before it is stopped: the lines returned include what the build logged for those calls.
     */
    public static List<String> assertStartsReady(String name, Map<String, String> environment, WhileReady whileReady)
            throws Exception {
        Path log = log(name);
        Map<String, String> withManagement = new HashMap<>(environment);
        withManagement.putIfAbsent("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
        withManagement.putIfAbsent("QUARKUS_MANAGEMENT_PORT", String.valueOf(FreePorts.next()));
        Process process = packaged(withManagement, log).start();
        try {
            URI ready = URI.create("http://127.0.0.1:" + withManagement.get("QUARKUS_MANAGEMENT_PORT") + "/q/health/ready");
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
                assertTrue(process.isAlive(), () -> "exited: " + JavaProcesses.tail(log, 30));
                try {
                    return http.send(HttpRequest.newBuilder(ready).GET().build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode() == 200;
                } catch (IOException notYet) {
                    return false;
                }
            });
            assertFalse(Files.readString(log).contains("Refusing to start"));
            whileReady.run();
        } finally {
            JavaProcesses.stop(process, 20);
        }
        return Files.readAllLines(log).stream().filter(line -> !line.isBlank()).toList();
    }

    /**
     * Every line is one JSON object (a deployment's log format, platform-commons' defaults) whose
     * {@code service} field is {@code service}; returns them parsed.
     */
    public static List<JsonNode> assertJsonLines(List<String> lines, String service) {
        assertFalse(lines.isEmpty(), "nothing printed");
        return lines.stream().map(line -> {
            JsonNode parsed;
            try {
                parsed = JSON.readTree(line);
            } catch (IOException notJson) {
                throw new AssertionError("not a JSON line: " + line, notJson);
            }
            assertTrue(parsed.isObject(), line);
            assertEquals(service, parsed.path("service").asText(), line);
            return parsed;
        }).toList();
    }
}

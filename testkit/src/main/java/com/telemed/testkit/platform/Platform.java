package com.telemed.testkit.platform;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.JavaProcesses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The seven services as separate JVMs from their Quarkus builds, on one {@link Infrastructure}.
 * ./stack and the end-to-end tests start the platform through this one class.
 */
public final class Platform implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Map<PlatformService, Process> processes;
    private final Map<PlatformService, Integer> ports;
    private final Path logDirectory;

    private Platform(Map<PlatformService, Process> processes, Map<PlatformService, Integer> ports, Path logDirectory) {
        this.processes = processes;
        this.ports = ports;
        this.logDirectory = logDirectory;
    }

    /**
     * Starts every service and returns once all answer ready; otherwise stops what it started and
     * throws, naming the service that failed with the tail of its log.
     */
    public static Platform start(Infrastructure infrastructure, PlatformOptions options) {
        Map<PlatformService, String> urls = new EnumMap<>(PlatformService.class);
        options.ports().forEach((service, port) -> urls.put(service, "http://127.0.0.1:" + port));
        Map<PlatformService, Process> processes = new EnumMap<>(PlatformService.class);
        Platform platform = new Platform(processes, options.ports(), options.logDirectory());
        try {
            for (PlatformService service : PlatformService.values()) {
                Path application = service.application(options.projectRoot());
                if (!Files.isRegularFile(application)) {
                    throw new PlatformStartException(service.module() + " is not built: " + application
                            + " is missing (run ./mvnw package -DskipTests)");
                }
                infrastructure.postgres().ensureDatabase(service.database());
                List<String> command = new ArrayList<>();
                command.add(JavaProcesses.javaExecutable());
                command.addAll(options.jvmOptions());
                command.addAll(List.of("-jar", application.toString()));
                processes.put(service, JavaProcesses.start(command, platform.log(service),
                        environment(service, infrastructure, options, urls)));
            }
            platform.awaitReady(options.readyTimeout());
            return platform;
        } catch (RuntimeException e) {
            platform.close();
            throw e;
        }
    }

    private static Map<String, String> environment(PlatformService service, Infrastructure infrastructure,
                                                   PlatformOptions options, Map<PlatformService, String> urls) {
        var postgres = infrastructure.postgres();
        Map<String, String> environment = new HashMap<>(options.environment());
        environment.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(options.ports().get(service)));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl(service.database()));
        environment.put("QUARKUS_DATASOURCE_USERNAME", postgres.username());
        environment.put("QUARKUS_DATASOURCE_PASSWORD", postgres.password());
        environment.put("KAFKA_BOOTSTRAP_SERVERS", infrastructure.kafka().bootstrapServers());
        urls.forEach((other, url) -> environment.put("SERVICE_URLS_" + other.urlKey(), url));
        return environment;
    }

    public URI url(PlatformService service) {
        return URI.create("http://127.0.0.1:" + ports.get(service));
    }

    public long pid(PlatformService service) {
        Process process = processes.get(service);
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    public Path log(PlatformService service) {
        return logDirectory.resolve(service.module() + ".log");
    }

    /** Whether the service answers 200 on its readiness probe right now. */
    public static boolean isReady(URI baseUrl) {
        try {
            HttpRequest request = HttpRequest.newBuilder(baseUrl.resolve("/q/health/ready"))
                    .timeout(Duration.ofSeconds(3)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void awaitReady(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        Set<PlatformService> waiting = new LinkedHashSet<>(processes.keySet());
        while (!waiting.isEmpty()) {
            for (var iterator = waiting.iterator(); iterator.hasNext(); ) {
                PlatformService service = iterator.next();
                Process process = processes.get(service);
                if (!process.isAlive()) {
                    throw new PlatformStartException(service.module() + " exited with code " + process.exitValue()
                            + "; last lines of " + log(service) + ":\n" + JavaProcesses.tail(log(service), 40));
                }
                if (isReady(url(service))) {
                    iterator.remove();
                }
            }
            if (!waiting.isEmpty() && Instant.now().isAfter(deadline)) {
                PlatformService first = waiting.iterator().next();
                throw new PlatformStartException(first.module() + " is not ready after " + timeout.toSeconds()
                        + " s (also waiting: " + waiting + "); last lines of " + log(first) + ":\n"
                        + JavaProcesses.tail(log(first), 40));
            }
            sleep(250);
        }
    }

    /** Stops every service (SIGTERM, then a kill after the grace period), all at once. */
    @Override
    public void close() {
        processes.values().forEach(Process::destroy);
        processes.values().forEach(process -> JavaProcesses.stop(process, 20));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PlatformStartException("interrupted while waiting for the services");
        }
    }
}

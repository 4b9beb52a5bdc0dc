package com.telemed.testkit.platform;

import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.JavaProcesses;
import com.telemed.testkit.report.BootLog;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The eight services as separate JVMs from their Quarkus builds, on one {@link Infrastructure}.
 * ./stack and the end-to-end tests start the platform through this one class.
 */
public final class Platform implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** How long a service has to exit after SIGTERM (its shutdown hooks run) before it is killed. */
    private static final long STOP_GRACE_SECONDS = 20;
    /**
     * The same at {@link #close} for a platform with class-data archives ({@link PlatformOptions#withClassArchives}):
     * a JVM writes its archive (40-95 MB) on its way out, eight at once, which took up to 100 s on two
     * cores at a load average of 30 to 100 (seconds on a quiet machine); one killed meanwhile leaves none.
     */
    private static final long ARCHIVING_STOP_GRACE_SECONDS = 120;
    /** How long a killed service's JVM may take to be gone (the kernel reaps it at once; this only bounds a wait). */
    private static final long KILL_WAIT_SECONDS = 10;
    /** The exit code of a JVM killed by SIGKILL (128 + 9): it wrote nothing complete at its exit. */
    private static final int KILLED = 137;
    /**
     * The Quarkus profile services run in unless the options' environment names another: the
     * development values live under it (production, the default profile of a packaged service,
     * refuses them).
     */
    public static final String LOCAL_PROFILE = "local";

    /** The variable a service's management port (health, metrics) is set by. */
    public static final String MANAGEMENT_PORT_VARIABLE = "QUARKUS_MANAGEMENT_PORT";

    /** One running JVM of a service: its http port and its management port (health and metrics). */
    private record Instance(PlatformService service, Process process, int port, int managementPort, Path log) {
        URI url() {
            return URI.create("http://127.0.0.1:" + port);
        }

        URI managementUrl() {
            return URI.create("http://127.0.0.1:" + managementPort);
        }
    }

    private final Map<PlatformService, Instance> services = new EnumMap<>(PlatformService.class);
    private final List<Instance> replicas = new ArrayList<>();
    private final Infrastructure infrastructure;
    private final PlatformOptions options;

    private Platform(Infrastructure infrastructure, PlatformOptions options) {
        this.infrastructure = infrastructure;
        this.options = options;
    }

    /**
     * Starts every service and returns once all answer ready; otherwise stops what it started and
     * throws, naming the service that failed with the tail of its log.
     */
    public static Platform start(Infrastructure infrastructure, PlatformOptions options) {
        long started = System.nanoTime();
        Platform platform = new Platform(infrastructure, options);
        try {
            for (PlatformService service : PlatformService.values()) {
                if (service.hasDatabase()) {
                    infrastructure.postgres().ensureDatabase(service.database());
                }
                int port = options.ports().get(service);
                platform.services.put(service, platform.launch(service, port, platform.managementPortOf(service),
                        options.logDirectory().resolve(service.module() + ".log"), Map.of(), true));
            }
            awaitReady(platform.services.values(), options.readyTimeout());
            BootLog.record(BootLog.Kind.PLATFORM, options.logDirectory().getFileName().toString(), started);
            return platform;
        } catch (RuntimeException e) {
            BootLog.record(BootLog.Kind.PLATFORM, options.logDirectory().getFileName() + " (failed)", started);
            platform.close();
            throw e;
        }
    }

    /**
     * Starts one more instance of a service on a free port, sharing its database and the broker
     * as a second replica of a deployment would, and returns its address once it is ready. It
     * stops with the platform.
     */
    public URI startReplica(PlatformService service) {
        return startReplica(service, Map.of());
    }

    /**
     * As {@link #startReplica(PlatformService)}, with {@code extraEnvironment} over the service's
     * own (say, an address that tells this replica's outgoing calls apart from the first one's).
     */
    public URI startReplica(PlatformService service, Map<String, String> extraEnvironment) {
        long started = System.nanoTime();
        int port = FreePorts.next();
        Instance replica = launch(service, port, FreePorts.next(), replicaLog(service, port), extraEnvironment);
        replicas.add(replica);
        awaitReady(List.of(replica), options.readyTimeout());
        BootLog.record(BootLog.Kind.SERVICE, service.module() + " replica", started);
        return replica.url();
    }

    /**
     * Starts {@code count} more instances of a service at once, as a deployment scaled out (or
     * created) with several replicas starts them, and returns their addresses once every one is
     * ready (or throws as {@link #start} does, naming the first that failed, the others stopped with
     * the platform). Each gets the service's environment with {@code extraEnvironment} over it (say,
     * a datasource URL of a database of its own: replicas of a new deployment on an empty database).
     */
    public List<URI> startReplicas(PlatformService service, int count, Map<String, String> extraEnvironment) {
        long startedNanos = System.nanoTime();
        List<Instance> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int port = FreePorts.next();
            Instance replica = launch(service, port, FreePorts.next(), replicaLog(service, port), extraEnvironment);
            // Registered before waiting, so close() stops it even when it never becomes ready.
            replicas.add(replica);
            started.add(replica);
        }
        awaitReady(started, options.readyTimeout());
        for (int i = 0; i < count; i++) {
            BootLog.record(BootLog.Kind.SERVICE, service.module() + " replica", startedNanos);
        }
        return started.stream().map(Instance::url).toList();
    }

    /** The log of the service's first instance (every line it wrote, across {@link #startAgain}). */
    public Path log(PlatformService service) {
        return options.logDirectory().resolve(service.module() + ".log");
    }

    /** The log of the replica at {@code url} (started by {@link #startReplica} or {@link #startReplicas}). */
    public Path replicaLog(URI url) {
        return replica(url).log();
    }

    /**
     * Stops the replica at {@code url} as {@link #stop} stops a service (SIGTERM, waits for the
     * exit; killed, and this throws, after the grace period) and forgets it. Returns the exit code.
     */
    public int stopReplica(URI url) {
        Instance replica = replica(url);
        Process process = replica.process();
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(replica.service().module() + " replica " + url + " did not exit within "
                        + STOP_GRACE_SECONDS + " s of SIGTERM and was killed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while stopping " + replica.service().module() + " replica " + url);
        } finally {
            if (!process.isAlive()) {
                replicas.remove(replica);
            }
        }
        return process.exitValue();
    }

    private Instance replica(URI url) {
        return replicas.stream().filter(instance -> instance.url().equals(url)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no replica at " + url));
    }

    private Path replicaLog(PlatformService service, int port) {
        return options.logDirectory().resolve(service.module() + "-replica-" + port + ".log");
    }

    /**
     * Stops one service as a deployment's rolling restart does: SIGTERM, then waits for the JVM to
     * exit, its shutdown hooks having run. Returns the exit code. When it has not exited within
     * the grace period it is killed and this throws: a caller testing a graceful stop must not
     * silently get a crash instead. {@link #startAgain} brings it back.
     */
    public int stop(PlatformService service) {
        Process process = services.get(service).process();
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(service.module() + " did not exit within " + STOP_GRACE_SECONDS
                        + " s of SIGTERM and was killed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while stopping " + service.module());
        } finally {
            archiveKept(service, process);
        }
        return process.exitValue();
    }

    /** After the service's first instance ended: the class-data archive it made, kept unless it was killed. */
    private void archiveKept(PlatformService service, Process process) {
        if (options.classArchives() != null && !process.isAlive()) {
            options.classArchives().kept(service, process.exitValue() == KILLED);
        }
    }

    /**
     * Kills one service as a crash would: SIGKILL, so no shutdown hook runs (nothing is drained,
     * flushed, acknowledged or given back; its connections just drop), then waits for the JVM to be
     * gone. Returns the exit code (137 = 128 + 9). {@link #startAgain} brings it back, as after
     * {@link #stop}.
     */
    public int kill(PlatformService service) {
        Process process = services.get(service).process();
        try {
            return JavaProcesses.kill(process, KILL_WAIT_SECONDS);
        } finally {
            archiveKept(service, process);
        }
    }

    /**
     * Starts a service stopped by {@link #stop} or {@link #kill} again: same port, same environment (so the other
     * services find it where they did), appending to the same log, and returns once it is ready
     * (or throws as {@link #start} does, leaving the platform otherwise running).
     */
    public void startAgain(PlatformService service) {
        startAgain(service, Map.of());
    }

    /**
     * As {@link #startAgain(PlatformService)}, with {@code extraEnvironment} over the service's own
     * for this run of it (say, a production pharmacy endpoint a test needs); the next
     * {@code startAgain} without it starts the service as the platform started it.
     */
    public void startAgain(PlatformService service, Map<String, String> extraEnvironment) {
        Instance stopped = services.get(service);
        if (stopped.process().isAlive()) {
            throw new IllegalStateException(service.module() + " is still running");
        }
        long startedNanos = System.nanoTime();
        Instance started = launch(service, stopped.port(), stopped.managementPort(), stopped.log(), extraEnvironment, true);
        // Registered before waiting, so close() stops it even when it never becomes ready.
        services.put(service, started);
        awaitReady(List.of(started), options.readyTimeout());
        BootLog.record(BootLog.Kind.SERVICE, service.module() + " started again", startedNanos);
    }

    /**
     * Stops the service's first instance ({@link #stop}) and starts it again with
     * {@code extraEnvironment} over its own ({@link #startAgain(PlatformService, Map)}): the way a test
     * runs one service of a shared platform configured otherwise, and, with an empty map, puts it back.
     */
    public void restart(PlatformService service, Map<String, String> extraEnvironment) {
        stop(service);
        startAgain(service, extraEnvironment);
    }

    /**
     * {@link #restart} with a replica ({@link #startReplica}) started beside the service's first
     * instance rather than after it: the two JVMs start together, as a deployment rolled out with two
     * replicas does, and this returns the replica's address once both are ready. The database is the
     * service's, already migrated, so neither instance has a migration to run.
     */
    public URI restartWithReplica(PlatformService service, Map<String, String> extraEnvironment,
                                  Map<String, String> replicaEnvironment) {
        stop(service);
        Instance stopped = services.get(service);
        long startedNanos = System.nanoTime();
        Instance first = launch(service, stopped.port(), stopped.managementPort(), stopped.log(), extraEnvironment, true);
        // Registered before waiting, so close() stops them even when one never becomes ready.
        services.put(service, first);
        int port = FreePorts.next();
        Instance replica = launch(service, port, FreePorts.next(), replicaLog(service, port), replicaEnvironment);
        replicas.add(replica);
        awaitReady(List.of(first, replica), options.readyTimeout());
        BootLog.record(BootLog.Kind.SERVICE, service.module() + " started again", startedNanos);
        BootLog.record(BootLog.Kind.SERVICE, service.module() + " replica", startedNanos);
        return replica.url();
    }

    public URI url(PlatformService service) {
        return URI.create("http://127.0.0.1:" + options.ports().get(service));
    }

    /**
     * Where the service's first instance serves its health ({@code /q/health/**}) and metrics
     * ({@code /q/metrics}): its management port, never its http port ({@link #url}).
     */
    public URI managementUrl(PlatformService service) {
        return services.get(service).managementUrl();
    }

    /** The management address ({@link #managementUrl}) of the replica at {@code url} ({@link #startReplica}). */
    public URI replicaManagementUrl(URI url) {
        return replica(url).managementUrl();
    }

    public long pid(PlatformService service) {
        Instance instance = services.get(service);
        return instance != null && instance.process().isAlive() ? instance.process().pid() : -1;
    }

    /** Whether the service answers 200 on its readiness probe right now ({@code managementUrl}: its management port). */
    public static boolean isReady(URI managementUrl) {
        try {
            HttpRequest request = HttpRequest.newBuilder(managementUrl.resolve("/q/health/ready"))
                    .timeout(Duration.ofSeconds(3)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The management port of a service's first instance: the one its environment names
     * ({@value #MANAGEMENT_PORT_VARIABLE}: ./stack's fixed ports), else a free one.
     */
    private int managementPortOf(PlatformService service) {
        String fixed = options.environmentOf(service).get(MANAGEMENT_PORT_VARIABLE);
        return fixed == null || fixed.isBlank() ? FreePorts.next() : Integer.parseInt(fixed.strip());
    }

    private Instance launch(PlatformService service, int port, int managementPort, Path log, Map<String, String> extraEnvironment) {
        return launch(service, port, managementPort, log, extraEnvironment, false);
    }

    private Instance launch(PlatformService service, int port, int managementPort, Path log, Map<String, String> extraEnvironment,
                            boolean firstInstance) {
        Path application = service.application(options.projectRoot());
        if (!Files.isRegularFile(application)) {
            throw new PlatformStartException(service.module() + " is not built: " + application
                    + " is missing (run ./mvnw package -DskipTests)");
        }
        List<String> command = options.commandOf(service, JavaProcesses.javaExecutable(), List.of("-jar", application.toString()),
                firstInstance);
        Map<String, String> environment = environment(service, port);
        environment.putAll(extraEnvironment);
        // After the extra environment: this instance's own port, whatever a shared environment says.
        environment.put(MANAGEMENT_PORT_VARIABLE, String.valueOf(managementPort));
        return new Instance(service, JavaProcesses.start(command, log, environment), port, managementPort, log);
    }

    private Map<String, String> environment(PlatformService service, int port) {
        var postgres = infrastructure.postgres();
        Map<String, String> environment = options.environmentOf(service);
        // The local profile: the services' development values (datasource credentials, webhook
        // encryption keys, trust key), which production refuses (platform-commons' ProductionSettings).
        environment.putIfAbsent("QUARKUS_PROFILE", LOCAL_PROFILE);
        environment.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        if (service.hasDatabase()) {
            environment.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl(service.database()));
            environment.put("QUARKUS_DATASOURCE_USERNAME", postgres.username());
            // A platform may name its own (the embedded server trusts loopback: any password connects).
            environment.putIfAbsent("QUARKUS_DATASOURCE_PASSWORD", postgres.password());
        } else {
            // No datasource at all (web-service): nothing of one, whatever the platform's shared environment says.
            environment.keySet().removeIf(name -> name.startsWith("QUARKUS_DATASOURCE_"));
        }
        environment.put("KAFKA_BOOTSTRAP_SERVERS", infrastructure.kafka().bootstrapServers());
        // Read by messaging-service's mailer (quarkus.mailer.host/port); the others ignore them.
        environment.put("SMTP_HOST", infrastructure.mail().host());
        environment.put("SMTP_PORT", String.valueOf(infrastructure.mail().port()));
        options.ports().forEach((other, otherPort) ->
                environment.put("SERVICE_URLS_" + other.urlKey(), "http://127.0.0.1:" + otherPort));
        // Attachment links lead to this platform's gateway, wherever its port is (messaging-service).
        Integer gateway = options.ports().get(PlatformService.GATEWAY);
        if (gateway != null) {
            environment.putIfAbsent("ATTACHMENT_BASE_URL", "http://127.0.0.1:" + gateway);
            // Booking links lead to this platform's booking page (requests-service), on its gateway.
            environment.putIfAbsent("BOOKING_BASE_URL", "http://127.0.0.1:" + gateway);
        }
        return environment;
    }

    private static void awaitReady(Iterable<Instance> instances, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        Set<Instance> waiting = new LinkedHashSet<>();
        instances.forEach(waiting::add);
        while (!waiting.isEmpty()) {
            for (var iterator = waiting.iterator(); iterator.hasNext(); ) {
                Instance instance = iterator.next();
                if (!instance.process().isAlive()) {
                    throw new PlatformStartException(instance.service().module() + " exited with code "
                            + instance.process().exitValue() + "; last lines of " + instance.log() + ":\n"
                            + JavaProcesses.tail(instance.log(), 40));
                }
                if (isReady(instance.managementUrl())) {
                    iterator.remove();
                }
            }
            if (!waiting.isEmpty() && Instant.now().isAfter(deadline)) {
                Instance first = waiting.iterator().next();
                throw new PlatformStartException(first.service().module() + " is not ready after "
                        + timeout.toSeconds() + " s (also waiting: " + waiting.stream().map(i -> i.service().module()).toList()
                        + "); last lines of " + first.log() + ":\n" + JavaProcesses.tail(first.log(), 40));
            }
            sleep(250);
        }
    }

    /** Stops every service and replica (SIGTERM, then a kill after the grace period), all at once. */
    @Override
    public void close() {
        List<Process> all = new ArrayList<>(replicas.stream().map(Instance::process).toList());
        services.values().forEach(instance -> all.add(instance.process()));
        all.forEach(Process::destroy);
        if (options.classArchives() == null) {
            all.forEach(process -> JavaProcesses.stop(process, STOP_GRACE_SECONDS));
        } else {
            // One deadline for all (they write their archives side by side): the first in the list gets as long as the last.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ARCHIVING_STOP_GRACE_SECONDS);
            all.forEach(process -> JavaProcesses.stop(process,
                    Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()))));
        }
        services.forEach((service, instance) -> archiveKept(service, instance.process()));
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

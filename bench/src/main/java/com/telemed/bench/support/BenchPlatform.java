package com.telemed.bench.support;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The whole platform for one benchmark run: embedded PostgreSQL and Kafka, then the seven services
 * from their Quarkus builds under the repository root (the working directory, as the scripts set
 * it) on random loopback ports, with an operator key of its own and messaging-service's attachment
 * links pointing at this platform's gateway. Each service logs to {@code <module>.log} in
 * {@link #logDirectory()}, which is kept after the run. Closing stops the services, then the
 * infrastructure.
 */
public final class BenchPlatform implements AutoCloseable {

    /** The bench's environment variables with this prefix go, without it, to every service. */
    public static final String SERVICE_PREFIX = "BENCH_SERVICE_";
    /** The services' JVM options in place of ./stack's small defaults (as STACK_JAVA_OPTS does for ./stack). */
    public static final String JVM_OPTIONS = "BENCH_JAVA_OPTS";

    private final Infrastructure infrastructure;
    private final Platform platform;
    private final String opsKey;
    private final Path logDirectory;

    private BenchPlatform(Infrastructure infrastructure, Platform platform, String opsKey, Path logDirectory) {
        this.infrastructure = infrastructure;
        this.platform = platform;
        this.opsKey = opsKey;
        this.logDirectory = logDirectory;
    }

    /**
     * The repository's root: where the services' builds and bench/ are. The nearest directory upwards from the
     * working directory (the scripts and -Pbench run from the root) holding ./stack and pom.xml, as testkit's
     * RunningPlatform.projectRoot finds it; the working directory when there is none.
     */
    public static Path root() {
        Path here = Path.of("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("stack")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        return here;
    }

    public static BenchPlatform start() throws Exception {
        return start(Map.of());
    }

    /**
     * The platform with {@code extra} added to every service's environment (and its replicas'), e.g.
     * {@code SERVICE_ENVIRONMENT} and a pharmacy endpoint; it cannot replace the operator key or the
     * attachment links' base.
     */
    public static BenchPlatform start(Map<String, String> extra) throws Exception {
        return start(extra, Map.of());
    }

    /**
     * As {@link #start(Map)}, with {@code perService} added over one service's environment alone (testkit's
     * {@code PlatformOptions.serviceEnvironment}), e.g. the gateway's embed submission limits; it cannot
     * replace the operator key or the attachment links' base either.
     */
    public static BenchPlatform start(Map<String, String> extra, Map<PlatformService, Map<String, String>> perService)
            throws Exception {
        String opsKey = "ops_bench_" + System.nanoTime();
        Map<PlatformService, Integer> ports = PlatformOptions.randomPorts();
        Map<String, String> environment = new HashMap<>(extra);
        // An experiment's settings for every service, from the bench's own environment:
        // BENCH_SERVICE_QUARKUS_OTEL_SDK_DISABLED=true gives each service QUARKUS_OTEL_SDK_DISABLED=true.
        System.getenv().forEach((name, value) -> {
            if (name.startsWith(SERVICE_PREFIX) && name.length() > SERVICE_PREFIX.length()) {
                environment.put(name.substring(SERVICE_PREFIX.length()), value);
                System.out.println("every service runs with " + name.substring(SERVICE_PREFIX.length()) + "=" + value);
            }
        });
        environment.put("OPS_API_KEY", opsKey);
        // Download links (messaging-service) name the gateway partners reach: this one.
        environment.put("ATTACHMENT_BASE_URL", "http://127.0.0.1:" + ports.get(PlatformService.GATEWAY));
        Map<PlatformService, Map<String, String>> serviceEnvironment = new HashMap<>();
        perService.forEach((service, variables) -> {
            Map<String, String> own = new HashMap<>(variables);
            own.remove("OPS_API_KEY");
            own.remove("ATTACHMENT_BASE_URL");
            serviceEnvironment.put(service, own);
        });
        Path logDirectory = Files.createTempDirectory("bench-logs-");
        Infrastructure infrastructure = Infrastructure.startEphemeral();
        try {
            Platform platform = Platform.start(infrastructure, new PlatformOptions(root(), logDirectory, ports,
                    PlatformOptions.jvmOptionsFrom(System.getenv(JVM_OPTIONS)), environment, Duration.ofSeconds(180), serviceEnvironment));
            return new BenchPlatform(infrastructure, platform, opsKey, logDirectory);
        } catch (Exception | Error e) {
            infrastructure.close();
            throw e;
        }
    }

    public Infrastructure infrastructure() {
        return infrastructure;
    }

    public Platform platform() {
        return platform;
    }

    public PostgresServer postgres() {
        return infrastructure.postgres();
    }

    public String opsKey() {
        return opsKey;
    }

    /** Where each service logs, as {@code <module>.log}; kept after the run. */
    public Path logDirectory() {
        return logDirectory;
    }

    public Path log(PlatformService service) {
        return logDirectory.resolve(service.module() + ".log");
    }

    public URI url(PlatformService service) {
        return platform.url(service);
    }

    public long pid(PlatformService service) {
        return platform.pid(service);
    }

    /** The operator and partner APIs of this platform, through its gateway. */
    public GatewayApi api() {
        return new GatewayApi(url(PlatformService.GATEWAY), opsKey);
    }

    @Override
    public void close() {
        try {
            platform.close();
        } finally {
            infrastructure.close();
        }
    }
}

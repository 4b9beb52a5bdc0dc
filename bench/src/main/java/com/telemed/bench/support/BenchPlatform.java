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
import java.util.Map;

/**
 * The whole platform for one benchmark run: embedded PostgreSQL and Kafka, then the seven services
 * from their Quarkus builds under the repository root (the working directory, as the scripts set
 * it) on random loopback ports, with an operator key of its own. Closing stops the services, then
 * the infrastructure.
 */
public final class BenchPlatform implements AutoCloseable {

    private final Infrastructure infrastructure;
    private final Platform platform;
    private final String opsKey;

    private BenchPlatform(Infrastructure infrastructure, Platform platform, String opsKey) {
        this.infrastructure = infrastructure;
        this.platform = platform;
        this.opsKey = opsKey;
    }

    /** The repository's root: where the services' builds and bench/ are. */
    public static Path root() {
        return Path.of("").toAbsolutePath();
    }

    public static BenchPlatform start() throws Exception {
        String opsKey = "ops_bench_" + System.nanoTime();
        Infrastructure infrastructure = Infrastructure.startEphemeral();
        try {
            Platform platform = Platform.start(infrastructure, new PlatformOptions(root(),
                    Files.createTempDirectory("bench-logs-"), PlatformOptions.randomPorts(),
                    PlatformOptions.DEFAULT_JVM_OPTIONS, Map.of("OPS_API_KEY", opsKey), Duration.ofSeconds(180)));
            return new BenchPlatform(infrastructure, platform, opsKey);
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

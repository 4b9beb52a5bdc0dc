package com.telemed.testkit.quarkus;

import com.telemed.testkit.infra.Infrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import java.util.UUID;

/**
 * Starts real PostgreSQL and Kafka for a service's Quarkus tests (random ports, private data
 * directory) and points the service at a database of its own on them.
 */
public class InfrastructureResource implements QuarkusTestResourceLifecycleManager {

    private static volatile Infrastructure running;
    private Infrastructure infrastructure;

    /** The infrastructure of this test run, for tests that take Kafka away and bring it back. */
    public static Infrastructure running() {
        if (running == null) {
            throw new IllegalStateException("no InfrastructureResource is running");
        }
        return running;
    }

    @Override
    public Map<String, String> start() {
        infrastructure = Infrastructure.startEphemeral();
        running = infrastructure;
        // Unique, so runs never collide on a shared external server.
        String database = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        var postgres = infrastructure.postgres();
        postgres.ensureDatabase(database);
        return Map.of(
                "quarkus.datasource.jdbc.url", postgres.jdbcUrl(database),
                "quarkus.datasource.username", postgres.username(),
                "quarkus.datasource.password", postgres.password(),
                "kafka.bootstrap.servers", infrastructure.kafka().bootstrapServers());
    }

    @Override
    public void stop() {
        if (infrastructure != null) {
            running = null;
            infrastructure.close();
        }
    }
}

package com.telemed.testkit.quarkus;

import com.telemed.testkit.infra.Infrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import java.util.UUID;

/**
 * Starts real PostgreSQL, Kafka and an SMTP server for a service's Quarkus tests (random ports,
 * private data directory) and points the service at a database of its own on them.
 *
 * <p>The mailer settings ({@code quarkus.mailer.host}, {@code quarkus.mailer.port}, and
 * {@code quarkus.mailer.mock=false}: Quarkus mocks the mailer in tests unless told otherwise) go to
 * every service; they override messaging-service's {@code ${SMTP_HOST:...}} defaults, and a service
 * without the mailer extension ignores them (Quarkus logs each as an unrecognized key at start-up).
 * A test reads the delivered mail through {@code running().embeddedMail()}.
 */
public class InfrastructureResource implements QuarkusTestResourceLifecycleManager {

    private static volatile Infrastructure running;
    private Infrastructure infrastructure;

    /**
     * The infrastructure of this test run, for tests that take Kafka or the SMTP server away and
     * bring it back, and that read the delivered mail ({@code embeddedMail().received()}).
     */
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
        var mail = infrastructure.mail();
        return Map.of(
                "quarkus.datasource.jdbc.url", postgres.jdbcUrl(database),
                "quarkus.datasource.username", postgres.username(),
                "quarkus.datasource.password", postgres.password(),
                "kafka.bootstrap.servers", infrastructure.kafka().bootstrapServers(),
                "quarkus.mailer.host", mail.host(),
                "quarkus.mailer.port", String.valueOf(mail.port()),
                "quarkus.mailer.mock", "false");
    }

    @Override
    public void stop() {
        if (infrastructure != null) {
            running = null;
            infrastructure.close();
        }
    }
}

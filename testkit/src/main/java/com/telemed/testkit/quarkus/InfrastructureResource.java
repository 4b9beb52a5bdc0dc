package com.telemed.testkit.quarkus;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.report.BootLog;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import java.util.UUID;

/**
 * Points a service's Quarkus tests at real PostgreSQL, Kafka and an SMTP server: the test JVM's
 * one set ({@link Infrastructure#shared()}), started by the first boot and lent to every later
 * one. Each boot (each application configuration of the module's tests) gets a database of its
 * own, dropped when the application stops, new topics and empty mailboxes, so that it starts as on
 * servers of its own; a server a test took away and left stopped is brought back first.
 *
 * <p>The mailer settings ({@code quarkus.mailer.host}, {@code quarkus.mailer.port}, and
 * {@code quarkus.mailer.mock=false}: Quarkus mocks the mailer in tests unless told otherwise) go to
 * every service; they override messaging-service's {@code ${SMTP_HOST:...}} defaults, and a service
 * without the mailer extension ignores them (Quarkus logs each as an unrecognized key at start-up).
 * A test reads the delivered mail through {@code running().embeddedMail()}.
 */
public class InfrastructureResource implements QuarkusTestResourceLifecycleManager {

    private static volatile Infrastructure running;
    private String database;
    private String profile;

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
    public void setContext(Context context) {
        profile = context.testProfile();
    }

    @Override
    public Map<String, String> start() {
        long started = System.nanoTime();
        Infrastructure infrastructure = Infrastructure.shared();
        infrastructure.ensureRunning();
        infrastructure.freshTopics();
        infrastructure.purgeMail();
        // Unique, so boots never share one, nor runs on a shared external server.
        database = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        var postgres = infrastructure.postgres();
        postgres.ensureDatabase(database);
        running = infrastructure;
        BootLog.record(BootLog.Kind.QUARKUS, profile == null ? "default profile" : profile, started);
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
        Infrastructure infrastructure = running;
        running = null;
        if (infrastructure != null && database != null) {
            infrastructure.dropDatabase(database);
        }
    }
}

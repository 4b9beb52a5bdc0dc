package com.telemed.testkit.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * PostgreSQL, Kafka and an SMTP server, embedded by default. {@code PLATFORM_POSTGRES_HOST} (with
 * {@code _PORT}, {@code _USER}, {@code _PASSWORD}), {@code PLATFORM_KAFKA_BOOTSTRAP_SERVERS} and
 * {@code PLATFORM_SMTP_HOST} (with {@code PLATFORM_SMTP_PORT}, 25 when absent) point at external
 * servers instead.
 */
public final class Infrastructure implements AutoCloseable {

    /** The event topics of the architecture, keyed by aggregate id. */
    public static final List<String> TOPICS = List.of("care.events", "catalogue.events", "member.events", "messaging.events");
    private static final int TOPIC_PARTITIONS = 3;

    private final PostgresServer postgres;
    private final KafkaCluster kafka;
    private final MailServer mail;
    private final Path directory;
    private final boolean deleteOnClose;

    private Infrastructure(PostgresServer postgres, KafkaCluster kafka, MailServer mail, Path directory,
                           boolean deleteOnClose) {
        this.postgres = postgres;
        this.kafka = kafka;
        this.mail = mail;
        this.directory = directory;
        this.deleteOnClose = deleteOnClose;
    }

    /** Random ports, a private directory removed on close and an SMTP server without IMAP: what tests use. */
    public static Infrastructure startEphemeral() {
        try {
            Path directory = Files.createTempDirectory("telemed-infra-");
            return start(directory, 0, 0, 0, () -> EmbeddedMailServer.start(0), false, System.getenv());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fixed ports and data kept in the directory across restarts: what ./stack uses (its SMTP server
     * serves IMAP too, and keeps its mail in memory only). The caller stops it with {@link #close()},
     * after the services.
     */
    public static Infrastructure startPersistent(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                                 int smtpPort, int imapPort) {
        return start(directory, postgresPort, kafkaPort, controllerPort,
                () -> EmbeddedMailServer.startWithImap(smtpPort, imapPort), true, System.getenv());
    }

    /** The mail server starts first: it takes a moment, and a taken port fails the start before the slow servers. */
    static Infrastructure start(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                Supplier<EmbeddedMailServer> embeddedMail, boolean persistent,
                                Map<String, String> environment) {
        MailServer mail = environment.containsKey("PLATFORM_SMTP_HOST")
                ? new ExternalMailServer(environment.get("PLATFORM_SMTP_HOST"),
                        Integer.parseInt(environment.getOrDefault("PLATFORM_SMTP_PORT", "25")))
                : embeddedMail.get();
        PostgresServer postgres;
        try {
            postgres = environment.containsKey("PLATFORM_POSTGRES_HOST")
                    ? new ExternalPostgresServer(environment.get("PLATFORM_POSTGRES_HOST"),
                            Integer.parseInt(environment.getOrDefault("PLATFORM_POSTGRES_PORT", "5432")),
                            environment.getOrDefault("PLATFORM_POSTGRES_USER", "postgres"),
                            environment.getOrDefault("PLATFORM_POSTGRES_PASSWORD", ""))
                    : EmbeddedPostgresServer.start(directory.resolve("postgres"), postgresPort, persistent);
        } catch (RuntimeException e) {
            mail.close();
            throw e;
        }
        KafkaCluster kafka;
        try {
            kafka = environment.containsKey("PLATFORM_KAFKA_BOOTSTRAP_SERVERS")
                    ? new ExternalKafkaCluster(environment.get("PLATFORM_KAFKA_BOOTSTRAP_SERVERS"))
                    : EmbeddedKafkaBroker.start(directory.resolve("kafka"), kafkaPort, controllerPort, !persistent);
            createTopics(kafka.bootstrapServers());
        } catch (RuntimeException e) {
            try {
                postgres.close();
            } finally {
                mail.close();
            }
            throw e;
        }
        return new Infrastructure(postgres, kafka, mail, directory, !persistent);
    }

    public PostgresServer postgres() {
        return postgres;
    }

    public KafkaCluster kafka() {
        return kafka;
    }

    /** The embedded broker, for tests that take Kafka away; fails when Kafka is external. */
    public EmbeddedKafkaBroker embeddedKafka() {
        if (kafka instanceof EmbeddedKafkaBroker broker) {
            return broker;
        }
        throw new IllegalStateException("Kafka is external (PLATFORM_KAFKA_BOOTSTRAP_SERVERS)");
    }

    /** Where the services send their mail (their {@code SMTP_HOST} and {@code SMTP_PORT}). */
    public MailServer mail() {
        return mail;
    }

    /**
     * The embedded SMTP server, for tests that read the delivered mail or take the server away;
     * fails when the server is external (PLATFORM_SMTP_HOST).
     */
    public EmbeddedMailServer embeddedMail() {
        if (mail instanceof EmbeddedMailServer server) {
            return server;
        }
        throw new IllegalStateException("the SMTP server is external (PLATFORM_SMTP_HOST)");
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void close() {
        try {
            kafka.close();
        } finally {
            try {
                postgres.close();
            } finally {
                mail.close();
                if (deleteOnClose) {
                    deleteRecursively(directory);
                }
            }
        }
    }

    private static void createTopics(String bootstrapServers) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            for (String topic : TOPICS) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, TOPIC_PARTITIONS, (short) 1)))
                            .all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + topic, e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not create the topics in time", e);
        }
    }

    private static void deleteRecursively(Path directory) {
        try {
            FileTrees.delete(directory);
        } catch (IOException ignored) {
            // A temporary directory left behind is harmless.
        }
    }
}

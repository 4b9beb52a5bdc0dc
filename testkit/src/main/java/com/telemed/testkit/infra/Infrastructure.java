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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * PostgreSQL plus Kafka, embedded by default. {@code PLATFORM_POSTGRES_HOST} (with
 * {@code _PORT}, {@code _USER}, {@code _PASSWORD}) and {@code PLATFORM_KAFKA_BOOTSTRAP_SERVERS}
 * point at external servers instead.
 */
public final class Infrastructure implements AutoCloseable {

    /** The event topics of the architecture, keyed by aggregate id. */
    public static final List<String> TOPICS = List.of("care.events", "member.events", "messaging.events");
    private static final int TOPIC_PARTITIONS = 3;

    private final PostgresServer postgres;
    private final KafkaCluster kafka;
    private final Path directory;
    private final boolean deleteOnClose;

    private Infrastructure(PostgresServer postgres, KafkaCluster kafka, Path directory, boolean deleteOnClose) {
        this.postgres = postgres;
        this.kafka = kafka;
        this.directory = directory;
        this.deleteOnClose = deleteOnClose;
    }

    /** Random ports and a private directory removed on close: what tests use. */
    public static Infrastructure startEphemeral() {
        try {
            Path directory = Files.createTempDirectory("telemed-infra-");
            return start(directory, 0, 0, 0, false, System.getenv());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fixed ports and data kept in the directory across restarts: what ./stack uses. The caller
     * stops it with {@link #close()}, after the services.
     */
    public static Infrastructure startPersistent(Path directory, int postgresPort, int kafkaPort, int controllerPort) {
        return start(directory, postgresPort, kafkaPort, controllerPort, true, System.getenv());
    }

    static Infrastructure start(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                boolean persistent, Map<String, String> environment) {
        PostgresServer postgres = environment.containsKey("PLATFORM_POSTGRES_HOST")
                ? new ExternalPostgresServer(environment.get("PLATFORM_POSTGRES_HOST"),
                        Integer.parseInt(environment.getOrDefault("PLATFORM_POSTGRES_PORT", "5432")),
                        environment.getOrDefault("PLATFORM_POSTGRES_USER", "postgres"),
                        environment.getOrDefault("PLATFORM_POSTGRES_PASSWORD", ""))
                : EmbeddedPostgresServer.start(directory.resolve("postgres"), postgresPort, persistent);
        KafkaCluster kafka;
        try {
            kafka = environment.containsKey("PLATFORM_KAFKA_BOOTSTRAP_SERVERS")
                    ? new ExternalKafkaCluster(environment.get("PLATFORM_KAFKA_BOOTSTRAP_SERVERS"))
                    : EmbeddedKafkaBroker.start(directory.resolve("kafka"), kafkaPort, controllerPort, !persistent);
            createTopics(kafka.bootstrapServers());
        } catch (RuntimeException e) {
            postgres.close();
            throw e;
        }
        return new Infrastructure(postgres, kafka, directory, !persistent);
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

    public Path directory() {
        return directory;
    }

    @Override
    public void close() {
        try {
            kafka.close();
        } finally {
            postgres.close();
            if (deleteOnClose) {
                deleteRecursively(directory);
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

package com.telemed.testkit.infra;

import static org.awaitility.Awaitility.await;

import com.telemed.testkit.report.BootLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
    /** False for the {@link #shared()} one, which only the JVM's exit stops. */
    private volatile boolean closeable = true;
    /** What stops before the shared servers do when the JVM exits (the platforms on them). */
    private final java.util.Deque<Runnable> beforeStopping = new java.util.concurrent.ConcurrentLinkedDeque<>();

    private Infrastructure(PostgresServer postgres, KafkaCluster kafka, MailServer mail, Path directory,
                           boolean deleteOnClose) {
        this.postgres = postgres;
        this.kafka = kafka;
        this.mail = mail;
        this.directory = directory;
        this.deleteOnClose = deleteOnClose;
    }

    /** The servers this JVM's tests share ({@link #shared()}); guarded by the class. */
    private static Infrastructure shared;

    /**
     * The one set of servers of this test JVM: started by the first caller (random ports, a private
     * directory, SMTP without IMAP, as {@link #startEphemeral()}, and a PostgreSQL that does not
     * sync to disk), lent to every later one, and
     * stopped when the JVM exits. Each Quarkus boot of a module's tests and each platform an
     * end-to-end test starts runs on it, apart from the others by its own databases and, between
     * boots, new topics ({@link #freshTopics()}). A caller must not {@link #close()} it; one that takes a
     * server away (stops Kafka or the SMTP server) brings it back, and {@link #ensureRunning()}
     * does so for the next one should a test have failed before it could.
     */
    public static synchronized Infrastructure shared() {
        if (shared == null) {
            // A Quarkus test loads this class anew with each application it boots: the set lives in the
            // system class loader's copy, and this loader's is a view of it.
            Object canonical = SystemLoaded.canonicalShared();
            shared = canonical == null ? startShared() : SystemLoaded.view(canonical);
        }
        return shared;
    }

    private static Infrastructure startShared() {
        long started = System.nanoTime();
        Infrastructure infrastructure;
        try {
            Path directory = Files.createTempDirectory("telemed-infra-");
            infrastructure = start(directory, 0, 0, 0, () -> EmbeddedMailServer.start(0), false, true, System.getenv());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        infrastructure.closeable = false;
        Runtime.getRuntime().addShutdownHook(new Thread(infrastructure::stopShared, "shared-infrastructure-stop"));
        BootLog.record(BootLog.Kind.SERVERS, "shared by this JVM", started);
        return infrastructure;
    }

    /** A class loader's view of the servers another loader's {@link #shared()} holds ({@link SystemLoaded}). */
    static Infrastructure view(PostgresServer postgres, KafkaCluster kafka, MailServer mail, Path directory) {
        Infrastructure view = new Infrastructure(postgres, kafka, mail, directory, false);
        view.closeable = false;
        return view;
    }

    /** Random ports, a private directory removed on close and an SMTP server without IMAP: what tests use. */
    public static Infrastructure startEphemeral() {
        try {
            Path directory = Files.createTempDirectory("telemed-infra-");
            return start(directory, 0, 0, 0, () -> EmbeddedMailServer.start(0), false, false, System.getenv());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fixed ports and data kept in the directory across restarts: what ./stack uses (its SMTP server
     * serves IMAP too, and keeps its mail in memory only). Returns once PostgreSQL is ready: the embedded
     * broker, on its fixed port, may still be starting (its JVM, its storage, the topics: the slower of the
     * two by some seconds), and the services start beside it (they reconnect until it answers, and a topic
     * one of them asks for first is made with the broker's {@code num.partitions}, as {@link #TOPICS} are);
     * {@link #awaitKafka()} waits for it. The caller stops it with {@link #close()}, after the services.
     */
    public static Infrastructure startPersistent(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                                 int smtpPort, int imapPort) {
        return startPersistent(directory, postgresPort, kafkaPort, controllerPort, smtpPort, imapPort,
                EmbeddedKafkaBroker.STARTUP_TIMEOUT);
    }

    /**
     * As {@link #startPersistent(Path, int, int, int, int, int)}, giving PostgreSQL and Kafka up to
     * {@code startTimeout} each to be ready (./stack gives them what it gives its services,
     * {@code STACK_START_TIMEOUT}), never less than their defaults.
     */
    public static Infrastructure startPersistent(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                                 int smtpPort, int imapPort, Duration startTimeout) {
        return start(directory, postgresPort, kafkaPort, controllerPort,
                () -> EmbeddedMailServer.startWithImap(smtpPort, imapPort), true, false, System.getenv(), startTimeout);
    }

    /**
     * The mail server starts first: it takes a moment, and a taken port fails the start before the
     * slow servers; then PostgreSQL and Kafka side by side. ./stack's broker ({@code persistent}) gets a
     * smaller heap than a benchmark's ({@link EmbeddedKafkaBroker#STACK_HEAP}). {@code forTests}: a test JVM's set ({@link #shared()}), PostgreSQL without syncs to
     * disk and Kafka on the client compiler; otherwise as ./stack and the benchmarks run them.
     */
    static Infrastructure start(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                Supplier<EmbeddedMailServer> embeddedMail, boolean persistent, boolean forTests,
                                Map<String, String> environment) {
        return start(directory, postgresPort, kafkaPort, controllerPort, embeddedMail, persistent, forTests, environment,
                EmbeddedKafkaBroker.STARTUP_TIMEOUT);
    }

    static Infrastructure start(Path directory, int postgresPort, int kafkaPort, int controllerPort,
                                Supplier<EmbeddedMailServer> embeddedMail, boolean persistent, boolean forTests,
                                Map<String, String> environment, Duration startTimeout) {
        Duration postgresWait = max(startTimeout, EmbeddedPostgresServer.STARTUP_WAIT);
        Duration kafkaWait = max(startTimeout, EmbeddedKafkaBroker.STARTUP_TIMEOUT);
        MailServer mail = environment.containsKey("PLATFORM_SMTP_HOST")
                ? new ExternalMailServer(environment.get("PLATFORM_SMTP_HOST"),
                        Integer.parseInt(environment.getOrDefault("PLATFORM_SMTP_PORT", "25")))
                : embeddedMail.get();
        // PostgreSQL and Kafka start side by side (Kafka's JVM in the background, PostgreSQL here): the
        // slower of the two is the wait, not their sum.
        CompletableFuture<KafkaCluster> kafkaStart = CompletableFuture.supplyAsync(() -> {
            KafkaCluster started = environment.containsKey("PLATFORM_KAFKA_BOOTSTRAP_SERVERS")
                    ? new ExternalKafkaCluster(environment.get("PLATFORM_KAFKA_BOOTSTRAP_SERVERS"))
                    : forTests ? EmbeddedKafkaBroker.startForTests(directory.resolve("kafka"))
                    : EmbeddedKafkaBroker.start(directory.resolve("kafka"), kafkaPort, controllerPort, !persistent, kafkaWait,
                            persistent ? EmbeddedKafkaBroker.STACK_HEAP : EmbeddedKafkaBroker.BENCH_HEAP);
            try {
                createTopics(started.bootstrapServers());
            } catch (RuntimeException e) {
                started.close();
                throw e;
            }
            return started;
        }, runnable -> {
            Thread thread = new Thread(runnable, "kafka-start");
            thread.setDaemon(true);
            thread.start();
        });
        PostgresServer postgres;
        try {
            postgres = environment.containsKey("PLATFORM_POSTGRES_HOST")
                    ? new ExternalPostgresServer(environment.get("PLATFORM_POSTGRES_HOST"),
                            Integer.parseInt(environment.getOrDefault("PLATFORM_POSTGRES_PORT", "5432")),
                            environment.getOrDefault("PLATFORM_POSTGRES_USER", "postgres"),
                            environment.getOrDefault("PLATFORM_POSTGRES_PASSWORD", ""))
                    : EmbeddedPostgresServer.start(directory.resolve("postgres"), postgresPort, persistent, !forTests, postgresWait);
        } catch (RuntimeException e) {
            try {
                awaitKafka(kafkaStart).close();
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            } finally {
                mail.close();
            }
            throw e;
        }
        if (persistent && kafkaPort > 0 && !environment.containsKey("PLATFORM_KAFKA_BOOTSTRAP_SERVERS")) {
            return new Infrastructure(postgres, new StartingKafkaCluster("127.0.0.1:" + kafkaPort, kafkaStart), mail,
                    directory, false);
        }
        KafkaCluster kafka;
        try {
            kafka = awaitKafka(kafkaStart);
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

    /** The broker the background start made, or its failure as it was thrown there. */
    static KafkaCluster awaitKafka(CompletableFuture<KafkaCluster> start) {
        try {
            return start.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /**
     * Waits for the broker when {@link #startPersistent} returned before it was ready; throws as its start
     * did (having stopped what it began). Returns at once otherwise.
     */
    public void awaitKafka() {
        if (kafka instanceof StartingKafkaCluster starting) {
            starting.await();
        }
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

    /**
     * Brings back a server a test took away and did not restart (the embedded broker, the embedded
     * SMTP server); does nothing for external ones or running ones.
     */
    public void ensureRunning() {
        if (kafka instanceof EmbeddedKafkaBroker broker && broker.pid() < 0) {
            broker.start();
        }
        if (mail instanceof EmbeddedMailServer server && !server.isRunning()) {
            server.start();
        }
    }

    /**
     * New topics, as on a new broker: every topic that is not Kafka's own is deleted, with the
     * consumer groups (their offsets went with the topics), and the platform's {@link #TOPICS} are
     * created again. Nothing may be producing or consuming meanwhile: this runs between one Quarkus
     * application of a test JVM and the next. Only on the embedded broker: an external cluster
     * ({@code PLATFORM_KAFKA_BOOTSTRAP_SERVERS}) may be someone else's too, and keeps its topics.
     */
    public void freshTopics() {
        if (!(kafka instanceof EmbeddedKafkaBroker)) {
            return;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            var names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            if (!names.isEmpty()) {
                admin.deleteTopics(names).all().get(30, TimeUnit.SECONDS);
            }
            var groups = admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS).stream()
                    .map(group -> group.groupId()).toList();
            if (!groups.isEmpty()) {
                try {
                    admin.deleteConsumerGroups(groups).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException stillInUse) {
                    // A group a straggling client still holds: its offsets went with the deleted topics anyway.
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot delete the topics", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not delete the topics in time", e);
        }
        createTopics(kafka.bootstrapServers());
    }

    /** Empties every mailbox of the embedded SMTP server (nothing to do for an external one). */
    public void purgeMail() {
        if (mail instanceof EmbeddedMailServer server) {
            server.purge();
        }
    }

    /** Drops a database of this server's, connections and all ({@code WITH (FORCE)}); absent is fine. */
    public void dropDatabase(String name) {
        Databases.dropDatabase(postgres, name);
    }

    /**
     * Runs {@code action} when the JVM exits, before the shared servers stop (the latest first): a
     * platform's services shut down while their database and broker still answer. The JVM runs its
     * shutdown hooks all at once, so a hook of the caller's own would race the servers' stop.
     */
    public void beforeStopping(Runnable action) {
        beforeStopping.push(action);
    }

    private void stopShared() {
        for (Runnable action = beforeStopping.poll(); action != null; action = beforeStopping.poll()) {
            try {
                action.run();
            } catch (RuntimeException e) {
                // The servers stop anyway.
            }
        }
        closeable = true;
        close();
    }

    /** Stops the servers; does nothing for the {@link #shared()} ones, which stop when the JVM exits. */
    @Override
    public void close() {
        if (!closeable) {
            return;
        }
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
                createTopic(admin, topic);
            }
            // A create is done once the controller has it; the broker's own view (what its clients are
            // told) follows a moment later, longer on a loaded machine: ready when the broker lists them all.
            await("the broker lists " + TOPICS).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS).containsAll(TOPICS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not create the topics in time", e);
        }
    }

    /**
     * Creates the topic unless it exists. A topic of that name being deleted ({@link #freshTopics()})
     * answers "marked for deletion" until the broker has removed it: asked again until then.
     */
    private static void createTopic(Admin admin, String topic) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.createTopics(List.of(new NewTopic(topic, TOPIC_PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException exists)) {
                    throw new IllegalStateException("cannot create topic " + topic, e.getCause());
                }
                if (!String.valueOf(exists.getMessage()).contains("marked for deletion")) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topic " + topic + " still being deleted after 30 s");
                }
                Thread.sleep(100);
            }
        }
    }

    private static void deleteRecursively(Path directory) {
        try {
            FileTrees.delete(directory);
        } catch (IOException ignored) {
            // A temporary directory left behind is harmless.
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}

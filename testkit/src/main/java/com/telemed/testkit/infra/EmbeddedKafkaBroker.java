package com.telemed.testkit.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka in KRaft mode (broker and controller in one process), run from the Kafka
 * jars in a child JVM so its Scala runtime never meets the caller's classpath. It can be stopped
 * (or killed) and started again on the same ports and data, which is how tests take Kafka away.
 */
public final class EmbeddedKafkaBroker implements KafkaCluster {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    /** How long a start may take unless the caller gives longer ({@link #start(Path, int, int, boolean, Duration)}). */
    public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private static final String PARTIAL = "data.partial-";
    private final Path directory;
    private final int port;
    private final int controllerPort;
    /** The one SASL/PLAIN login clients must give, or null for a plaintext listener without authentication. */
    private final String[] saslLogin;
    private Process process;
    private KafkaClassData.Archiving archiving = KafkaClassData.Archiving.NONE;
    private boolean clientCompilerOnly;
    private Duration startupTimeout = STARTUP_TIMEOUT;
    /** The broker JVM's heap and compiler options ({@link #TEST_HEAP} unless a start names others). */
    private List<String> heap = TEST_HEAP;

    /**
     * A test JVM's broker, and a benchmark's: up to 320 MB of heap (a benchmark pushes tens of thousands of
     * events a second through it).
     */
    public static final List<String> TEST_HEAP = List.of("-Xms64m", "-Xmx320m");
    /** A benchmark's broker ({@link #TEST_HEAP}). */
    public static final List<String> BENCH_HEAP = TEST_HEAP;
    /**
     * ./stack's broker (issue 44): a developer's few events a second. 96 MB of heap (with the 8 MB dedupe
     * buffer, {@link #writeProperties}), the client compiler and glibc's arenas capped ({@code MALLOC_ARENA_MAX},
     * {@link JavaProcesses}): idle, 169 MB resident instead of 321 (bench/footprint.sh).
     */
    public static final List<String> STACK_HEAP = Stream.concat(Stream.of("-Xms32m", "-Xmx96m",
            "-XX:TieredStopAtLevel=1", "-XX:ReservedCodeCacheSize=32m", "-Xss512k"), JavaProcesses.JDK_ARCHIVE_SHARED.stream()).toList();
    /** For a view of the broker another class loader of this JVM runs ({@link SystemLoaded}); else null. */
    private final SystemLoaded.KafkaControl shared;

    private EmbeddedKafkaBroker(Path directory, int port, int controllerPort, String[] saslLogin) {
        this.directory = directory;
        this.port = port;
        this.controllerPort = controllerPort;
        this.saslLogin = saslLogin;
        this.shared = null;
    }

    private EmbeddedKafkaBroker(SystemLoaded.KafkaControl shared) {
        this.directory = null;
        this.port = -1;
        this.controllerPort = -1;
        this.saslLogin = null;
        this.shared = shared;
    }

    /** This class loader's view of the JVM's shared broker: every call goes to it. */
    static EmbeddedKafkaBroker viewOf(SystemLoaded.KafkaControl shared) {
        return new EmbeddedKafkaBroker(shared);
    }

    /**
     * Formats the storage when new, starts the broker and waits until it answers. Port 0 picks a
     * free one. With {@code stopOnExit} a shutdown hook stops it should the caller not.
     */
    public static EmbeddedKafkaBroker start(Path directory, int port, int controllerPort, boolean stopOnExit) {
        return start(directory, port, controllerPort, stopOnExit, STARTUP_TIMEOUT);
    }

    /**
     * As {@link #start(Path, int, int, boolean)}, waiting up to {@code startupTimeout} for this start
     * and every later one (./stack gives its servers as long as its services: a niced stack beside a
     * busy machine can take longer than the default).
     */
    public static EmbeddedKafkaBroker start(Path directory, int port, int controllerPort, boolean stopOnExit,
                                            Duration startupTimeout) {
        return start(directory, port, controllerPort, stopOnExit, startupTimeout, TEST_HEAP);
    }

    /** As {@link #start(Path, int, int, boolean, Duration)}, the broker's JVM with {@code heap} ({@link #STACK_HEAP}). */
    public static EmbeddedKafkaBroker start(Path directory, int port, int controllerPort, boolean stopOnExit,
                                            Duration startupTimeout, List<String> heap) {
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(directory,
                port == 0 ? FreePorts.next() : port,
                controllerPort == 0 ? FreePorts.next() : controllerPort, null);
        broker.startupTimeout = startupTimeout;
        broker.heap = List.copyOf(heap);
        return start(broker, stopOnExit);
    }

    /**
     * A test JVM's broker ({@link Infrastructure#shared()}): as {@link #start(Path, int, int, boolean)}
     * on free ports, its JVM with the client compiler only, which starts it (and starts it again
     * after a test took it away) sooner on a machine of few cores.
     */
    static EmbeddedKafkaBroker startForTests(Path directory) {
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(directory, FreePorts.next(), FreePorts.next(), null);
        broker.clientCompilerOnly = true;
        return start(broker, true);
    }

    /**
     * A broker on free ports whose only client listener is {@code SASL_PLAINTEXT} with the
     * {@code PLAIN} mechanism and one login, as a managed cluster that requires authentication is:
     * clients connect with {@link #clientSecurity()}, and a client without it gets nowhere.
     */
    public static EmbeddedKafkaBroker startWithSaslPlain(Path directory, String username, String password) {
        return start(new EmbeddedKafkaBroker(directory, FreePorts.next(), FreePorts.next(),
                new String[] {username, password}), true);
    }

    private static EmbeddedKafkaBroker start(EmbeddedKafkaBroker broker, boolean stopOnExit) {
        if (stopOnExit) {
            Runtime.getRuntime().addShutdownHook(new Thread(broker::stop, "kafka-broker-stop"));
        }
        broker.start();
        return broker;
    }

    public synchronized void start() {
        if (shared != null) {
            shared.start();
            return;
        }
        if (process != null && process.isAlive()) {
            return;
        }
        Path log = directory.resolve("kafka.log");
        formatIfNew(log);
        Path properties = writeProperties("server.properties", directory.resolve("data"));
        archiving = KafkaClassData.claim();
        process = JavaProcesses.start(command("kafka.Kafka", archiving.options(), properties.toString()), log, Map.of());
        awaitReady(log);
    }

    /** Stops the broker gracefully; its data stays for a later {@link #start()}. */
    public synchronized void stop() {
        if (shared != null) {
            shared.stop();
            return;
        }
        if (process != null) {
            JavaProcesses.stop(process, 30);
            if (!process.isAlive()) {
                archiving.completed();
            }
        }
    }

    /**
     * Kills the broker as a crash would: SIGKILL, no controlled shutdown, so the next
     * {@link #start()} (same ports, same data) recovers its logs as after a power cut of the
     * process. Returns once the JVM is gone; its exit code (137) is returned, -1 when it was not running.
     */
    public synchronized int kill() {
        if (shared != null) {
            return shared.kill();
        }
        if (process == null || !process.isAlive()) {
            return -1;
        }
        int exitCode = JavaProcesses.kill(process, 30);
        archiving.abandoned();
        return exitCode;
    }

    @Override
    public String bootstrapServers() {
        if (shared != null) {
            return shared.bootstrapServers();
        }
        return "127.0.0.1:" + port;
    }

    /**
     * The Kafka client settings that authenticate to this broker (empty for a plaintext one),
     * named as a client takes them ({@code security.protocol}, {@code sasl.mechanism},
     * {@code sasl.jaas.config}).
     */
    public Map<String, String> clientSecurity() {
        if (shared != null) {
            return shared.clientSecurity();
        }
        if (saslLogin == null) {
            return Map.of();
        }
        return Map.of("security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + saslLogin[0] + "\" password=\"" + saslLogin[1] + "\";");
    }

    @Override
    public long pid() {
        if (shared != null) {
            return shared.pid();
        }
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    @Override
    public void close() {
        if (shared != null) {
            return; // a view: the server is the JVM's, and stops when it exits
        }
        stop();
    }

    private List<String> command(String mainClass, List<String> classData, String... arguments) {
        var command = new java.util.ArrayList<>(List.of(JavaProcesses.javaExecutable()));
        command.addAll(heap);
        command.addAll(List.of("-XX:+UseSerialGC", "-Djava.awt.headless=true"));
        if (clientCompilerOnly && !command.contains("-XX:TieredStopAtLevel=1")) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.addAll(classData);
        // The kit's simplelogger.properties as settings: the broker's classpath is the kit's jars only
        // (KafkaClassData), without the kit itself.
        command.addAll(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.kafka.server.KafkaRaftServer=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSX",
                "-cp", KafkaClassData.CLASSPATH, mainClass));
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * Formats new storage beside its place and renames it into place once formatted, so {@code data}
     * exists only complete. A {@code data} without {@code meta.properties} never held a formatted log
     * (a launcher was killed while formatting): it is removed and formatted again.
     *
     * <p>Each start formats into a folder, and from a settings file, of its own
     * ({@code data.partial-<pid>-<nonce>}): a launcher killed while formatting leaves its formatter
     * running as an orphan, which would otherwise write its own cluster id into the next start's folder
     * (Kafka then refuses it: "Invalid cluster.id"). Leftover partial folders are removed first.
     */
    private void formatIfNew(Path log) {
        Path data = directory.resolve("data");
        if (Files.exists(data.resolve("meta.properties"))) {
            return;
        }
        String attempt = ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        Path partial = directory.resolve(PARTIAL + attempt);
        try {
            if (Files.exists(data)) {
                LOG.warn("Removing {}: its storage was never formatted (an earlier start was interrupted)", data);
                FileTrees.delete(data);
            }
            removeLeftoverAttempts();
            Path formatProperties = writeProperties("format-" + attempt + ".properties", partial);
            JavaProcesses.run(command("kafka.tools.StorageTool", KafkaClassData.use(), "format",
                    "-t", Uuid.randomUuid().toString(), "-c", formatProperties.toString()), log, 120);
            Files.move(partial, data, StandardCopyOption.ATOMIC_MOVE);
            Files.delete(formatProperties);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare Kafka's storage in " + data, e);
        }
    }

    /** Partial folders and format settings an interrupted start left; an orphan still writing one may recreate it. */
    private void removeLeftoverAttempts() throws IOException {
        try (var leftovers = Files.list(directory)) {
            for (Path leftover : leftovers.filter(path -> {
                String name = path.getFileName().toString();
                return name.startsWith(PARTIAL) || name.equals("data.partial")
                        || (name.startsWith("format") && name.endsWith(".properties"));
            }).toList()) {
                try {
                    FileTrees.delete(leftover);
                } catch (IOException e) {
                    LOG.warn("Could not remove {} an interrupted start left: {}", leftover, e.toString());
                }
            }
        } catch (NoSuchFileException e) {
            // a new directory: nothing left over
        }
    }

    private Path writeProperties(String fileName, Path logDirectory) {
        Properties config = new Properties();
        config.setProperty("process.roles", "broker,controller");
        config.setProperty("node.id", "1");
        config.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        String listener = saslLogin == null ? "PLAINTEXT" : "SASL_PLAINTEXT";
        config.setProperty("listeners", listener + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        config.setProperty("advertised.listeners", listener + "://127.0.0.1:" + port);
        config.setProperty("controller.listener.names", "CONTROLLER");
        config.setProperty("inter.broker.listener.name", listener);
        config.setProperty("listener.security.protocol.map", listener + ":" + listener + ",CONTROLLER:PLAINTEXT");
        if (saslLogin != null) {
            config.setProperty("sasl.enabled.mechanisms", "PLAIN");
            config.setProperty("sasl.mechanism.inter.broker.protocol", "PLAIN");
            config.setProperty("listener.name.sasl_plaintext.plain.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + saslLogin[0]
                            + "\" password=\"" + saslLogin[1] + "\" user_" + saslLogin[0] + "=\"" + saslLogin[1] + "\";");
        }
        config.setProperty("log.dirs", logDirectory.toString());
        config.setProperty("num.partitions", "3");
        // One node: every internal topic has one replica, and few partitions keep start-up quick.
        config.setProperty("offsets.topic.replication.factor", "1");
        config.setProperty("offsets.topic.num.partitions", "5");
        config.setProperty("transaction.state.log.replication.factor", "1");
        config.setProperty("transaction.state.log.min.isr", "1");
        config.setProperty("transaction.state.log.num.partitions", "5");
        config.setProperty("share.coordinator.state.topic.replication.factor", "1");
        config.setProperty("share.coordinator.state.topic.min.isr", "1");
        config.setProperty("group.initial.rebalance.delay.ms", "0");
        // No no-op records from the controller every 500 ms: an idle test broker (most of its life)
        // then costs about 1.1 CPU-seconds a minute instead of 1.5; one node has no follower to keep
        // fresh with them.
        config.setProperty("metadata.max.idle.interval.ms", "0");
        // A restarted node re-registers without waiting out its previous session.
        config.setProperty("broker.heartbeat.interval.ms", "500");
        config.setProperty("broker.session.timeout.ms", "3000");
        config.setProperty("auto.create.topics.enable", "true");
        // The log cleaner's dedupe buffer (compacted topics: here only the consumer offsets) is allocated on the
        // heap at start and filled: 128 MB by default, most of an idle broker's heap and resident memory. 8 MB
        // holds some 350,000 keys, far more than a test's or ./stack's offsets (issue 44).
        config.setProperty("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        try {
            Files.createDirectories(directory);
            Path file = directory.resolve(fileName);
            try (var out = Files.newBufferedWriter(file)) {
                config.store(out, "written by the testkit; regenerated on every start");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady(Path log) {
        Instant deadline = Instant.now().plus(startupTimeout);
        Map<String, Object> adminConfig = new java.util.HashMap<>(clientSecurity());
        adminConfig.putAll(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000));
        try (Admin admin = Admin.create(adminConfig)) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("Kafka exited with code " + process.exitValue()
                            + ", log " + log + ":\n" + JavaProcesses.tail(log, 40));
                }
                try {
                    if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception notYet) {
                    // Still starting.
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("Kafka not ready after " + startupTimeout.toSeconds()
                            + " s, log " + log + ":\n" + JavaProcesses.tail(log, 40));
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka", e);
        }
    }
}

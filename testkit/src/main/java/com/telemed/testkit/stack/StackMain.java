package com.telemed.testkit.stack;

import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.MailServer;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.URI;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor behind {@code ./stack up}: starts the SMTP server (in this JVM), PostgreSQL, Kafka
 * and the eight services with fixed ports and data under {@code .stack/}, seeds the demo data,
 * reports through files in {@code .stack/run/} (the summary ./stack prints once ready, with a demo
 * booking page and hosted survey page to open in a browser: {@link #readySummary}), and on SIGTERM
 * stops the services first, then Kafka, then PostgreSQL, then the SMTP server.
 */
public final class StackMain {

    private static final Logger LOG = LoggerFactory.getLogger(StackMain.class);
    public static final int POSTGRES_PORT = 15432;
    public static final int KAFKA_PORT = 19092;
    public static final int KAFKA_CONTROLLER_PORT = 19093;
    /** The embedded SMTP server the services send to, and its IMAP side for reading the mail. */
    public static final int SMTP_PORT = 12525;
    public static final int IMAP_PORT = 12143;

    private final StackFiles files;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Infrastructure infrastructure;
    private volatile Platform platform;

    private StackMain(StackFiles files) {
        this.files = files;
    }

    /** Arguments: the checkout's root, then the stack's home ({@code <root>/.stack} when absent). */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path home = args.length > 1 ? Path.of(args[1]).toAbsolutePath().normalize() : root.resolve(".stack");
        StackMain stack = new StackMain(new StackFiles(home));
        Runtime.getRuntime().addShutdownHook(new Thread(stack::stop, "stack-stop"));
        try {
            stack.start(root);
        } catch (RuntimeException | Error e) {
            // The whole trace goes to the log; ./stack shows the user the cause alone.
            LOG.error("stack failed to start", e);
            stack.files.markFailed(cause(e));
            System.exit(1);
        }
        stack.stopped.await();
    }

    /** One line that names what went wrong, for ./stack to print instead of a stack trace. */
    static String cause(Throwable failure) {
        if (failure instanceof OutOfMemoryError) {
            return "the launcher ran out of memory (" + failure.getMessage() + "); start it with a larger"
                    + " heap in STACK_LAUNCHER_OPTS, for example -Xmx256m";
        }
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getName() : message;
    }

    private void start(Path root) throws IOException {
        Duration startTimeout = startTimeout(System.getenv("STACK_START_TIMEOUT"));
        files.reset();
        files.writePid("stack", ProcessHandle.current().pid());
        String opsKey = OperatorKey.resolve(System.getenv("OPS_API_KEY"), files.directory().resolve("ops-api-key"));

        long began = System.nanoTime();
        infrastructure = Infrastructure.startPersistent(files.directory().resolve("data"),
                POSTGRES_PORT, KAFKA_PORT, KAFKA_CONTROLLER_PORT, SMTP_PORT, IMAP_PORT, startTimeout);
        files.writePid("postgres", infrastructure.postgres().pid());
        files.writeMail(infrastructure.mail());
        LOG.info("SMTP server and PostgreSQL ready in {} ms; Kafka starting beside the services",
                (System.nanoTime() - began) / 1_000_000);
        // The broker's pid file as soon as it is ready, as before the services started beside it: a launcher
        // killed meanwhile leaves ./stack the pid to stop it by.
        Thread kafkaPid = new Thread(() -> {
            try {
                infrastructure.awaitKafka();
                files.writePid("kafka", infrastructure.kafka().pid());
            } catch (RuntimeException | Error failed) {
                // reported by the start below
            }
        }, "kafka-pid");
        kafkaPid.setDaemon(true);
        kafkaPid.start();

        String environment = System.getenv().getOrDefault("SERVICE_ENVIRONMENT", "sandbox");
        PlatformOptions options = new PlatformOptions(root, files.directory().resolve("logs"),
                PlatformOptions.stackPorts(), PlatformOptions.jvmOptionsFrom(System.getenv("STACK_JAVA_OPTS"), PlatformOptions.STACK_JVM_OPTIONS),
                stackEnvironment(opsKey, environment), startTimeout, stackManagementPorts());
        if (classArchives(System.getenv("STACK_CLASS_ARCHIVES"))) {
            options = options.withClassArchives(files.directory().resolve("class-data"));
        }
        platform = Platform.start(infrastructure, options);
        infrastructure.awaitKafka();
        try {
            kafkaPid.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Kafka started", e);
        }
        for (PlatformService service : PlatformService.values()) {
            files.writePid(service.module(), platform.pid(service));
        }
        LOG.info("Kafka and all services ready in {} ms", (System.nanoTime() - began) / 1_000_000);

        DemoData.Seeded demo = DemoData.seed(platform.url(PlatformService.GATEWAY), opsKey, files.directory().resolve("demo.properties"));
        files.markReady(readySummary(platform.url(PlatformService.GATEWAY), opsKey, infrastructure.mail(), demo));
    }

    /**
     * What ./stack prints after "Platform ready": the gateway, then the two demo pages a new user
     * opens in a browser (they are served on the gateway's address), the operator key, the mail, the
     * demo data.
     */
    static String readySummary(URI gateway, String opsKey, MailServer mail, DemoData.Seeded demo) {
        return "Gateway:      " + gateway + "\n"
                + demo.pageLines()
                + "Operator key: " + opsKey + "   (header x-ops-key)\n"
                + mailSummary(mail) + "\n" + demo.summary();
    }

    /**
     * What every service of ./stack gets: the operator key, the environment, a wait of up to 30 s for a
     * database connection ({@code quarkus.datasource.jdbc.acquisition-timeout}, 5 s by default) while eight
     * JVMs, PostgreSQL and Kafka start at once on a developer's few cores (a first connection's backend
     * can take longer than 5 s to start then, and the service would fail its migrations), and pools that
     * close a connection idle for 30 s ({@code idle-removal-interval}, 5 minutes by default): an idle stack
     * keeps a few PostgreSQL backends instead of the twenty-odd its start and demo data opened, each some
     * 10 to 20 MB resident (issue 44).
     */
    static Map<String, String> stackEnvironment(String opsKey, String serviceEnvironment) {
        return Map.of("OPS_API_KEY", opsKey, "SERVICE_ENVIRONMENT", serviceEnvironment,
                "QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "30S",
                "QUARKUS_DATASOURCE_JDBC_IDLE_REMOVAL_INTERVAL", "30S");
    }

    /**
     * Whether the services start from class-data archives of their builds ({@code .stack/class-data/}, made
     * by the first {@code up} of a build at its {@code down}): yes unless {@code STACK_CLASS_ARCHIVES} is
     * {@code off} (a comparison, or a JDK that refuses them).
     */
    static boolean classArchives(String setting) {
        return setting == null || !setting.strip().equalsIgnoreCase("off");
    }

    /** Each service's fixed management port (health, metrics: ./stack status and metrics read them there). */
    static Map<PlatformService, Map<String, String>> stackManagementPorts() {
        Map<PlatformService, Map<String, String>> ports = new java.util.EnumMap<>(PlatformService.class);
        for (PlatformService service : PlatformService.values()) {
            ports.put(service, Map.of(Platform.MANAGEMENT_PORT_VARIABLE, String.valueOf(service.stackManagementPort())));
        }
        return ports;
    }

    /**
     * How long each service, and PostgreSQL and Kafka before them, may take to be ready:
     * {@code STACK_START_TIMEOUT} in seconds (a slow or busy machine), 120 when unset (the servers
     * never get less than their own 60 and 90); anything but a positive number of seconds is refused.
     */
    static Duration startTimeout(String seconds) {
        if (seconds == null || seconds.isBlank()) {
            return Duration.ofSeconds(120);
        }
        try {
            long value = Long.parseLong(seconds.strip());
            if (value > 0) {
                return Duration.ofSeconds(value);
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new IllegalArgumentException("STACK_START_TIMEOUT must be a positive number of seconds, not '" + seconds + "'");
    }

    /** Where the mail goes and how a person reads it. */
    static String mailSummary(MailServer mail) {
        if (mail instanceof EmbeddedMailServer embedded && embedded.imapPort().isPresent()) {
            return "Mail:         SMTP " + mail.host() + ":" + mail.port() + ", read it over IMAP at " + mail.host() + ":"
                    + embedded.imapPort().getAsInt() + " (login and password: the recipient's address)";
        }
        return "Mail:         SMTP " + mail.host() + ":" + mail.port() + " (external: PLATFORM_SMTP_HOST)";
    }

    private void stop() {
        try {
            if (platform != null) {
                platform.close();
            }
            if (infrastructure != null) {
                infrastructure.close();
            }
        } finally {
            files.clearRun();
            stopped.countDown();
        }
    }

}

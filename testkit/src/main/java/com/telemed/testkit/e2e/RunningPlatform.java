package com.telemed.testkit.e2e;

import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.logscan.LogStarts;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension giving end-to-end tests the whole platform, started once per test JVM with
 * the launcher ./stack uses (random ports, private data) on the JVM's one set of servers
 * ({@link Infrastructure#shared()}) and stopped when the JVM's tests end. Jupiter tests take it as a
 * parameter: {@code @ExtendWith(RunningPlatform.class)} then
 * {@code void test(RunningPlatform.Handle platform)}; a test of another JUnit Platform engine (jqwik's
 * property) takes the same one from {@link #shared()}. Every platform switches on the end-to-end checks
 * ({@link EndToEndChecks}): the OpenAPI contract check of its gateway's answers, and the record of
 * what the tests sent, for the log scan.
 *
 * <p>A test that needs a service configured otherwise (a production pharmacy, a short reminder
 * schedule) starts the shared platform's instance again with its own environment
 * ({@link Platform#restart}, or {@link Platform#restartWithReplica} with a replica beside it) and puts
 * it back ({@code restart(service, Map.of())}) when it ends; one that takes a service or the broker
 * away brings it back. No test starts a platform of its own.
 */
public final class RunningPlatform implements ParameterResolver {

    /** The gateway's embed submission limits (per address and per partner) on test platforms: never reached. */
    static final String EMBED_LIMIT_FOR_TESTS = "1000000";

    /**
     * The running platform as a test sees it. The services send their mail to
     * {@code infrastructure().mail()}; {@link #mail()} reads what arrived and takes the server away.
     */
    public static final class Handle implements ExtensionContext.Store.CloseableResource {

        private final Infrastructure infrastructure;
        private final Platform platform;
        private final String opsKey;
        private final Secrets secrets;
        private final AtomicBoolean closed = new AtomicBoolean();

        Handle(Infrastructure infrastructure, Platform platform, String opsKey, Secrets secrets) {
            this.infrastructure = infrastructure;
            this.platform = platform;
            this.opsKey = opsKey;
            this.secrets = secrets;
        }

        public Infrastructure infrastructure() {
            return infrastructure;
        }

        public Platform platform() {
            return platform;
        }

        public String opsKey() {
            return opsKey;
        }

        /** The deployment secrets this platform was started with (each drawn at random for it). */
        public Secrets secrets() {
            return secrets;
        }

        /** The embedded SMTP server the services send to (fails when PLATFORM_SMTP_HOST names an external one). */
        public EmbeddedMailServer mail() {
            return infrastructure.embeddedMail();
        }

        public URI gateway() {
            return platform.url(PlatformService.GATEWAY);
        }

        public URI url(PlatformService service) {
            return platform.url(service);
        }

        /** Where the service serves its health and metrics: its management port, not {@link #url}. */
        public URI managementUrl(PlatformService service) {
            return platform.managementUrl(service);
        }

        /** Stops the services, once (the servers are the JVM's, and stop when it exits). */
        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                forget(this);
                EndToEndChecks.platformStopping(this);
                platform.close();
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Handle.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // Jupiter's run closes it when its last class is done (after LogScanIT); a JVM that runs no
        // Jupiter class closes it on exit.
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Handle.class, key -> shared(), Handle.class);
    }

    /** The JVM's shared platform, started by the first caller, logs in {@code e2e/target/platform-logs}. */
    public static synchronized Handle shared() {
        if (shared == null) {
            Handle started = start(projectRoot().resolve("e2e/target/platform-logs"));
            started.infrastructure().beforeStopping(started::close);
            shared = started;
        }
        return shared;
    }

    private static Handle shared;

    private static synchronized void forget(Handle stopped) {
        if (shared == stopped) {
            shared = null;
        }
    }

    /**
     * The secrets of a deployment that the platform is given instead of the local profile's development
     * values, each drawn at random, so that the log scan can look for them: the key every service proves
     * its calls with ({@code PLATFORM_TRUST_KEY}), the key messaging-service derives attachment links
     * with ({@code ATTACHMENT_LINK_KEY}), the database password (the embedded PostgreSQL trusts
     * loopback, so any password connects) and the SMTP login messaging-service sends mail with (the
     * embedded server accepts any).
     */
    public record Secrets(String trustKey, String attachmentLinkKey, String databasePassword, String smtpUsername,
                          String smtpPassword) {

        static Secrets random() {
            return new Secrets("trust_" + hex(32), "links_" + hex(32), "db_" + hex(16), "smtp-user-" + hex(4), "smtp_" + hex(16));
        }
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    /**
     * The services whose console log is JSON, as in production (quarkus-logging-json): the log scan
     * reads both formats. The ones that handle the most patient data: message text, file names,
     * booking links, the payloads of webhooks.
     */
    public static final Set<PlatformService> JSON_LOGS = EnumSet.of(PlatformService.MESSAGING,
            PlatformService.REQUESTS, PlatformService.WEBHOOK);

    private static Handle start(Path logDirectory) {
        Path root = projectRoot();
        String opsKey = "ops_" + hex(24);
        Secrets secrets = Secrets.random();
        Map<PlatformService, Map<String, String>> perService = new EnumMap<>(PlatformService.class);
        for (PlatformService service : JSON_LOGS) {
            // An environment variable outranks the local profile's value (false) in a properties file.
            perService.put(service, new HashMap<>(Map.of("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true")));
        }
        perService.computeIfAbsent(PlatformService.MESSAGING, service -> new HashMap<>())
                .putAll(Map.of("SMTP_USERNAME", secrets.smtpUsername(), "SMTP_PASSWORD", secrets.smtpPassword(),
                        "ATTACHMENT_LINK_KEY", secrets.attachmentLinkKey()));
        consumerSessions(root).forEach((service, variables) ->
                perService.computeIfAbsent(service, key -> new HashMap<>()).putAll(variables));
        // The log scan reads only what this JVM's platforms write (the logs are appended to across runs).
        LogStarts.markBeforeWriting(logDirectory);
        Infrastructure infrastructure = Infrastructure.shared();
        List<String> jvm = new ArrayList<>(PlatformOptions.TEST_JVM_OPTIONS);
        // The services' class-data archives, once PlatformStartFailureIT's platform has made them: every
        // restart and replica started after that loads most of its classes from them (a start's CPU
        // about a fifth less); the platform's first start, before them, runs without.
        jvm.add("-XX:SharedArchiveFile=" + classArchives().resolve(PlatformOptions.MODULE + ".jsa"));
        jvm.add("-Xlog:cds=off");
        Platform platform = Platform.start(infrastructure, new PlatformOptions(root,
                logDirectory, PlatformOptions.randomPorts(),
                jvm,
                Map.of("OPS_API_KEY", opsKey, "SERVICE_ENVIRONMENT", "sandbox",
                        // Every test call comes from 127.0.0.1: at the gateway's default embed limits (20
                        // submissions a minute per address, 600 per partner) most survey submissions of the
                        // e2e tests and of the bad-input property would be answered 429 and never reach
                        // requests-service. The limits themselves are tested by the gateway's
                        // SubmissionLimitsTest and by a gateway replica of SurveysThroughGatewayIT with small
                        // ones (a replica's own environment goes over this).
                        "GATEWAY_EMBED_LIMITS_PER_ADDRESS", EMBED_LIMIT_FOR_TESTS,
                        "GATEWAY_EMBED_LIMITS_PER_PARTNER", EMBED_LIMIT_FOR_TESTS,
                        // The retention job (messaging, billing, webhook, gateway) runs every 10 minutes by default:
                        // within the suite, so that its runs are seen (MetricsScrapeIT). It deletes
                        // nothing here (no row is 30 days old), so no test's rows change under it.
                        "PLATFORM_RETENTION_INTERVAL", "20s",
                        "PLATFORM_TRUST_KEY", secrets.trustKey(),
                        "QUARKUS_DATASOURCE_PASSWORD", secrets.databasePassword()),
                Duration.ofSeconds(180), perService));
        Handle handle = new Handle(infrastructure, platform, opsKey, secrets);
        // From here on every call to this gateway is held to its OpenAPI documents, and what the calls
        // send is recorded for the log scan.
        EndToEndChecks.platformStarted(handle);
        return handle;
    }

    /** The broker's least session timeout ({@code group.min.session.timeout.ms}'s default). */
    static final int TEST_SESSION_TIMEOUT_MS = 6_000;

    private static final Pattern SESSION_TIMEOUT = Pattern.compile("mp\\.messaging\\.incoming\\.([a-z0-9-]+)\\.session\\.timeout\\.ms");

    /**
     * Every Kafka consumer of the services (a channel whose {@code session.timeout.ms} its
     * application.properties sets, 10 s) with the broker's least session timeout, 6 s, and a heartbeat
     * every 2 s, as environment variables over the properties: a consumer a test kills
     * (BillingLedgerRestartIT, the replicas tests, ChaosIT) holds its partitions until its session
     * ends, and the survivor or the restarted instance waits that long. Deployments keep 10 s.
     */
    static Map<PlatformService, Map<String, String>> consumerSessions(Path root) {
        Map<PlatformService, Map<String, String>> variables = new EnumMap<>(PlatformService.class);
        for (PlatformService service : PlatformService.values()) {
            Path properties = root.resolve(service.module()).resolve("src/main/resources/application.properties");
            if (!Files.isRegularFile(properties)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(properties)) {
                    Matcher channel = SESSION_TIMEOUT.matcher(line.strip().split("=", 2)[0].strip());
                    if (channel.matches()) {
                        String prefix = "MP_MESSAGING_INCOMING_" + channel.group(1).toUpperCase(Locale.ROOT).replace('-', '_');
                        Map<String, String> own = variables.computeIfAbsent(service, key -> new HashMap<>());
                        own.put(prefix + "_SESSION_TIMEOUT_MS", String.valueOf(TEST_SESSION_TIMEOUT_MS));
                        own.put(prefix + "_HEARTBEAT_INTERVAL_MS", String.valueOf(TEST_SESSION_TIMEOUT_MS / 3));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return variables;
    }

    /**
     * Where the services' dynamic class-data archives are kept ({@code <module>.jsa}), for the
     * build's packaged jars: made by a platform whose JVMs exit ({@code -XX:ArchiveClassesAtExit}),
     * used by the shared platform's later starts ({@code -XX:SharedArchiveFile}). The JVM checks an
     * archive against the jars it was made from and ignores one that does not match.
     */
    public static Path classArchives() {
        return projectRoot().resolve("e2e/target/class-archives");
    }

    /** The checkout's root: the nearest directory upwards holding the ./stack script. */
    public static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("stack")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no project root (with ./stack) above " + Path.of("").toAbsolutePath());
    }
}

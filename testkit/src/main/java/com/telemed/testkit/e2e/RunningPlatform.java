package com.telemed.testkit.e2e;

import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.logscan.LogStarts;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
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
        private final AtomicBoolean closed = new AtomicBoolean();

        Handle(Infrastructure infrastructure, Platform platform, String opsKey) {
            this.infrastructure = infrastructure;
            this.platform = platform;
            this.opsKey = opsKey;
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

    private static Handle start(Path logDirectory) {
        Path root = projectRoot();
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String opsKey = "ops_" + HexFormat.of().formatHex(random);
        // The log scan reads only what this JVM's platforms write (the logs are appended to across runs).
        LogStarts.markBeforeWriting(logDirectory);
        Infrastructure infrastructure = Infrastructure.shared();
        Platform platform = Platform.start(infrastructure, new PlatformOptions(root,
                logDirectory, PlatformOptions.randomPorts(),
                PlatformOptions.TEST_JVM_OPTIONS,
                Map.of("OPS_API_KEY", opsKey, "SERVICE_ENVIRONMENT", "sandbox",
                        // Every test call comes from 127.0.0.1: at the gateway's default embed limits (20
                        // submissions a minute per address, 600 per partner) most survey submissions of the
                        // e2e tests and of the bad-input property would be answered 429 and never reach
                        // requests-service. The limits themselves are tested by the gateway's
                        // SubmissionLimitsTest and by a gateway replica of SurveysThroughGatewayIT with small
                        // ones (a replica's own environment goes over this).
                        "GATEWAY_EMBED_LIMITS_PER_ADDRESS", EMBED_LIMIT_FOR_TESTS,
                        "GATEWAY_EMBED_LIMITS_PER_PARTNER", EMBED_LIMIT_FOR_TESTS),
                Duration.ofSeconds(180)));
        Handle handle = new Handle(infrastructure, platform, opsKey);
        // From here on every call to this gateway is held to its OpenAPI documents, and what the calls
        // send is recorded for the log scan.
        EndToEndChecks.platformStarted(handle);
        return handle;
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

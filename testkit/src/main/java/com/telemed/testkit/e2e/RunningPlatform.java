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
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension giving end-to-end tests the whole platform, started once per test JVM with
 * the launcher ./stack uses (random ports, private data) and stopped when the JVM's tests end.
 * Tests take it as a parameter: {@code @ExtendWith(RunningPlatform.class)} then
 * {@code void test(RunningPlatform.Handle platform)}. Every platform switches on the end-to-end checks
 * ({@link EndToEndChecks}): the OpenAPI contract check of its gateway's answers, and the record of
 * what the tests sent, for the log scan.
 */
public final class RunningPlatform implements ParameterResolver {

    /** The gateway's embed submission limits (per address and per partner) on test platforms: never reached. */
    static final String EMBED_LIMIT_FOR_TESTS = "1000000";

    /**
     * The running platform as a test sees it. The services send their mail to
     * {@code infrastructure().mail()}; {@link #mail()} reads what arrived and takes the server away.
     */
    public record Handle(Infrastructure infrastructure, Platform platform, String opsKey)
            implements ExtensionContext.Store.CloseableResource {

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

        @Override
        public void close() {
            try {
                EndToEndChecks.platformStopping(this);
                platform.close();
            } finally {
                infrastructure.close();
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Handle.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Handle.class, key -> start(projectRoot().resolve("e2e/target/platform-logs")), Handle.class);
    }

    /**
     * A platform of the caller's own, for tests that cannot take the shared one as a parameter
     * (another JUnit Platform engine, such as jqwik): started as the extension starts it, logs in
     * {@code e2e/target/platform-logs-<name>}; the caller closes it.
     */
    public static Handle startPrivate(String name) {
        return startPrivate(name, Map.of());
    }

    /**
     * As {@link #startPrivate(String)}, with environment of some services' own over the shared one
     * (say, requests-service in a production deployment with a pharmacy endpoint of the test's).
     */
    public static Handle startPrivate(String name, Map<PlatformService, Map<String, String>> serviceEnvironment) {
        return start(projectRoot().resolve("e2e/target/platform-logs-" + name), serviceEnvironment);
    }

    private static Handle start(Path logDirectory) {
        return start(logDirectory, Map.of());
    }

    private static Handle start(Path logDirectory, Map<PlatformService, Map<String, String>> serviceEnvironment) {
        Path root = projectRoot();
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String opsKey = "ops_" + HexFormat.of().formatHex(random);
        // The log scan reads only what this JVM's platforms write (the logs are appended to across runs).
        LogStarts.markBeforeWriting(logDirectory);
        Infrastructure infrastructure = Infrastructure.startEphemeral();
        try {
            Platform platform = Platform.start(infrastructure, new PlatformOptions(root,
                    logDirectory, PlatformOptions.randomPorts(),
                    PlatformOptions.DEFAULT_JVM_OPTIONS,
                    Map.of("OPS_API_KEY", opsKey, "SERVICE_ENVIRONMENT", "sandbox",
                            // Every test call comes from 127.0.0.1: at the gateway's default embed limits (20
                            // submissions a minute per address, 600 per partner) most survey submissions of the
                            // e2e tests and of the bad-input property would be answered 429 and never reach
                            // requests-service. The limits themselves are tested by the gateway's
                            // SubmissionLimitsTest and by a gateway replica of SurveysThroughGatewayIT with small
                            // ones (a replica's own environment goes over this).
                            "GATEWAY_EMBED_LIMITS_PER_ADDRESS", EMBED_LIMIT_FOR_TESTS,
                            "GATEWAY_EMBED_LIMITS_PER_PARTNER", EMBED_LIMIT_FOR_TESTS),
                    Duration.ofSeconds(180), serviceEnvironment));
            Handle handle = new Handle(infrastructure, platform, opsKey);
            // From here on every call to this gateway is held to its OpenAPI documents, and what the calls
            // send is recorded for the log scan.
            EndToEndChecks.platformStarted(handle);
            return handle;
        } catch (RuntimeException e) {
            infrastructure.close();
            throw e;
        }
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

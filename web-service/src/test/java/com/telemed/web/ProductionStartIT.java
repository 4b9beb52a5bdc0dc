package com.telemed.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.JavaProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged service ({@code java -jar target/quarkus-app/quarkus-run.jar}, Quarkus's prod profile, as a
 * deployment runs it) without its settings refuses to start: exit code 1 and, on standard error, the one
 * line of platform-commons' {@code ProductionSettings} naming the trust key, the console's session key and
 * both service URLs (and no datasource: the web service has none). The check runs before the HTTP router is built
 * ({@code page.CheckBeforeServing}); without it the trust key's absence ended the start with a stack trace.
 * (Standard output carries Quarkus's warnings about platform-commons' datasource defaults, which this
 * service has no extension for.)
 */
class ProductionStartIT {

    @Test
    void nothingSetRefusesNamingEverySetting() throws Exception {
        assertEquals(List.of("Refusing to start in production: platform.trust.key (PLATFORM_TRUST_KEY) is not set;"
                        + " web.console.session-key (WEB_CONSOLE_SESSION_KEY) is not set;"
                        + " web.service-urls.gateway (SERVICE_URLS_GATEWAY) is not set; web.service-urls.requests (SERVICE_URLS_REQUESTS)"
                        + " is not set. Development values apply only under the dev, test and local profiles."),
                start("nothing-set", Map.of()));
    }

    /** The console's OpenID Connect issuer without its client: refused in the same line, before any provider is asked. */
    @Test
    void anIssuerWithoutItsClientIsRefused() throws Exception {
        assertEquals(List.of("Refusing to start in production: platform.trust.key (PLATFORM_TRUST_KEY) is not set;"
                        + " web.console.oidc.client-id (WEB_CONSOLE_OIDC_CLIENT_ID) is not set while web.console.oidc.issuer (WEB_CONSOLE_OIDC_ISSUER) is;"
                        + " web.console.oidc.client-secret (WEB_CONSOLE_OIDC_CLIENT_SECRET) is not set while web.console.oidc.issuer (WEB_CONSOLE_OIDC_ISSUER) is;"
                        + " web.console.session-key (WEB_CONSOLE_SESSION_KEY) is not set;"
                        + " web.service-urls.gateway (SERVICE_URLS_GATEWAY) is not set; web.service-urls.requests (SERVICE_URLS_REQUESTS)"
                        + " is not set. Development values apply only under the dev, test and local profiles."),
                start("issuer-without-client", Map.of("WEB_CONSOLE_OIDC_ISSUER", "http://127.0.0.1:" + FreePorts.next() + "/realms/clinic")));
    }

    private static List<String> start(String run, Map<String, String> settings) throws Exception {
        Path errors = Files.createDirectories(Path.of("target/production-start")).resolve(run + ".err");
        ProcessBuilder builder = new ProcessBuilder(JavaProcesses.javaExecutable(), "-Xmx128m", "-jar", "target/quarkus-app/quarkus-run.jar")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errors.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("QUARKUS_") || name.startsWith("PLATFORM_")
                || name.startsWith("SERVICE_") || name.startsWith("WEB_"));
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(FreePorts.next()));
        builder.environment().put("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", String.valueOf(FreePorts.next()));
        builder.environment().putAll(settings);
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("still running after 60 s");
        }
        assertEquals(1, process.exitValue());
        return Files.readAllLines(errors, StandardCharsets.UTF_8).stream().filter(line -> !line.isBlank()).toList();
    }
}

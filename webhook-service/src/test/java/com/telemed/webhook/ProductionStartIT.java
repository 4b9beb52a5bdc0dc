package com.telemed.webhook;

import static com.telemed.testkit.production.PackagedStart.assertJsonLines;
import static com.telemed.testkit.production.PackagedStart.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static com.telemed.testkit.production.PackagedStart.assertStartsReady;
import static com.telemed.testkit.production.PackagedStart.refusedStart;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.webhook.settings.SecretKeys;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged service ({@code java -jar target/quarkus-app/quarkus-run.jar}, Quarkus's prod
 * profile, as a deployment runs it) refuses to start while a secret is missing or a development
 * value, or the environment is not exactly sandbox or production: exit code 1 and one line naming
 * every setting at fault, printed before any connection to the database is attempted (the JDBC URL
 * points at a closed port: Flyway would have failed first). With a deployment's own values it starts,
 * and logs one JSON object a line, each with the service's name.
 */
class ProductionStartIT {

    private static final String OWN_KEY = "2025-06:" + Base64.getEncoder().encodeToString(new byte[32]);

    /** A deployment's settings, all right; each case spoils some. */
    private static Map<String, String> deployment() {
        Map<String, String> environment = new HashMap<>();
        environment.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(FreePorts.next()));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/webhook?sslmode=verify-full");
        environment.put("QUARKUS_DATASOURCE_USERNAME", "webhook");
        environment.put("QUARKUS_DATASOURCE_PASSWORD", "from-the-deployments-vault");
        environment.put("PLATFORM_TRUST_KEY", "a-deployment-trust-key-from-its-own-secret-store");
        environment.put("SERVICE_ENVIRONMENT", "production");
        environment.put("WEBHOOK_SECRET_KEYS", OWN_KEY);
        environment.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + FreePorts.next());
        environment.put("KAFKA_SECURITY_PROTOCOL", "SASL_SSL");
        return environment;
    }

    @Test
    void nothingSetRefusesNamingEverySetting() throws Exception {
        Map<String, String> environment = new HashMap<>();
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(FreePorts.next()));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/webhook");
        assertRefused(refusedStart("nothing-set", environment),
                "quarkus.datasource.username (QUARKUS_DATASOURCE_USERNAME) is not set",
                "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is not set",
                "platform.trust.key (PLATFORM_TRUST_KEY) is not set",
                "webhook.environment (SERVICE_ENVIRONMENT) is not set (sandbox or production)",
                "webhook.secret-keys (WEBHOOK_SECRET_KEYS) is not set");
    }

    @Test
    void developmentValuesAreRefused() throws Exception {
        Map<String, String> environment = deployment();
        environment.put("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        environment.put("PLATFORM_TRUST_KEY", "local-development-trust-key-not-a-secret");
        environment.put("WEBHOOK_SECRET_KEYS", OWN_KEY + ",local:" + SecretKeys.DEVELOPMENT_KEY);
        environment.put("WEBHOOK_SECRET_ENCRYPTION_KEY", SecretKeys.DEVELOPMENT_KEY);
        assertRefused(refusedStart("development-values", environment),
                "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is the development value",
                "platform.trust.key (PLATFORM_TRUST_KEY) is the development value",
                "webhook.secret-encryption-key (WEBHOOK_SECRET_ENCRYPTION_KEY) is the development key",
                "webhook.secret-keys (WEBHOOK_SECRET_KEYS) holds the development key (id local)");
    }

    /** A misspelt environment used to mean sandbox: no https rule, no SSRF check. */
    @Test
    void aMisspeltEnvironmentIsRefused() throws Exception {
        Map<String, String> environment = deployment();
        environment.put("SERVICE_ENVIRONMENT", "prodution");
        assertRefused(refusedStart("misspelt-environment", environment),
                "webhook.environment (SERVICE_ENVIRONMENT) is \"prodution\", not sandbox or production");
    }

    /** Issue #38: production refuses a database and a broker reached in plain text. */
    @Test
    void productionRefusesPlainTransport() throws Exception {
        Map<String, String> environment = deployment();
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/webhook");
        environment.remove("KAFKA_SECURITY_PROTOCOL");
        assertRefused(refusedStart("plain-transport", environment),
                "quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) has sslmode prefer; production needs verify-full,"
                        + " or require or verify-ca with sslrootcert",
                "kafka.security.protocol (KAFKA_SECURITY_PROTOCOL) is \"PLAINTEXT\"; production needs SSL or SASL_SSL");
    }

    /**
     * The prod profile needs nothing of the development profiles: with a deployment's values it starts and
     * is ready. A sandbox: production would need TLS to the database and the broker, which the test JVM's
     * servers do not offer.
     */
    @Test
    void aDeploymentsOwnValuesStart() throws Exception {
        // The test JVM's servers (Infrastructure.shared()): they stop when it exits.
        Infrastructure infrastructure = Infrastructure.shared();
        infrastructure.postgres().ensureDatabase("webhook");
        Map<String, String> environment = deployment();
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", infrastructure.postgres().jdbcUrl("webhook"));
        environment.put("QUARKUS_DATASOURCE_USERNAME", infrastructure.postgres().username());
        environment.put("KAFKA_BOOTSTRAP_SERVERS", infrastructure.kafka().bootstrapServers());
        environment.remove("KAFKA_SECURITY_PROTOCOL");
        environment.put("SERVICE_ENVIRONMENT", "sandbox");
        List<JsonNode> lines = assertJsonLines(assertStartsReady("deployment", environment), "webhook-service");
        // Quarkus's own start line, as one JSON object: the prod profile logs JSON, not the plain format.
        assertEquals(1, lines.stream().filter(line -> line.path("loggerName").asText().equals("io.quarkus")
                && line.path("message").asText().startsWith("webhook-service 1.0.0-SNAPSHOT on JVM")
                && line.path("message").asText().contains(" started in ")).count(),
                lines.toString());
    }
}

package com.telemed.messaging;

import static com.telemed.testkit.production.PackagedStart.assertRefused;
import static com.telemed.testkit.production.PackagedStart.assertStartsReady;
import static com.telemed.testkit.production.PackagedStart.refusedStart;

import com.telemed.testkit.infra.FreePorts;
import com.telemed.testkit.infra.Infrastructure;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged service, as a deployment runs it, refuses to start without its SMTP server, the
 * public base of attachment links and a key of its own for their tokens (beside the datasource and
 * the trust key), naming each; with a deployment's own values it starts.
 */
class ProductionStartIT {

    /** A deployment's settings, all right; each case spoils some. */
    private static Map<String, String> deployment() {
        Map<String, String> environment = new HashMap<>();
        environment.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(FreePorts.next()));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/messaging");
        environment.put("QUARKUS_DATASOURCE_USERNAME", "messaging");
        environment.put("QUARKUS_DATASOURCE_PASSWORD", "from-the-deployments-vault");
        environment.put("PLATFORM_TRUST_KEY", "a-deployment-trust-key-from-its-own-secret-store");
        environment.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + FreePorts.next());
        environment.put("SMTP_HOST", "smtp.deployment.example");
        environment.put("ATTACHMENT_BASE_URL", "https://api.deployment.example");
        environment.put("ATTACHMENT_LINK_KEY", "a-deployment-attachment-link-key-from-its-secret-store");
        return environment;
    }

    @Test
    void nothingSetRefusesNamingEverySetting() throws Exception {
        Map<String, String> environment = new HashMap<>();
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(FreePorts.next()));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/messaging");
        assertRefused(refusedStart("nothing-set", environment),
                "quarkus.datasource.username (QUARKUS_DATASOURCE_USERNAME) is not set",
                "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is not set",
                "platform.trust.key (PLATFORM_TRUST_KEY) is not set",
                "messaging.attachments.base-url (ATTACHMENT_BASE_URL) is not set",
                "messaging.attachments.link-key (ATTACHMENT_LINK_KEY) is not set",
                "messaging.smtp-host (SMTP_HOST) is not set");
    }

    @Test
    void theLinkKeysDevelopmentValueOrAShortKeyIsRefused() throws Exception {
        Map<String, String> environment = deployment();
        environment.put("ATTACHMENT_LINK_KEY", "a-deployment-attachment-link-key-from-its-secret-store,"
                + "local-development-attachment-link-key-not-a-secret");
        assertRefused(refusedStart("development-link-key", environment),
                "messaging.attachments.link-key (ATTACHMENT_LINK_KEY) holds the development value");
        environment.put("ATTACHMENT_LINK_KEY", "short");
        assertRefused(refusedStart("short-link-key", environment),
                "messaging.attachments.link-key (ATTACHMENT_LINK_KEY) holds a key shorter than 32 characters");
    }

    @Test
    void withoutTheMailServerOrTheLinksBaseItRefuses() throws Exception {
        Map<String, String> environment = deployment();
        environment.remove("SMTP_HOST");
        environment.remove("ATTACHMENT_BASE_URL");
        assertRefused(refusedStart("no-smtp-no-links", environment),
                "messaging.attachments.base-url (ATTACHMENT_BASE_URL) is not set",
                "messaging.smtp-host (SMTP_HOST) is not set");
    }

    @Test
    void aDeploymentsOwnValuesStart() throws Exception {
        // The test JVM's servers (Infrastructure.shared()): they stop when it exits.
        Infrastructure infrastructure = Infrastructure.shared();
        infrastructure.postgres().ensureDatabase("messaging");
        Map<String, String> environment = deployment();
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", infrastructure.postgres().jdbcUrl("messaging"));
        environment.put("QUARKUS_DATASOURCE_USERNAME", infrastructure.postgres().username());
        environment.put("KAFKA_BOOTSTRAP_SERVERS", infrastructure.kafka().bootstrapServers());
        assertStartsReady("deployment", environment);
    }
}

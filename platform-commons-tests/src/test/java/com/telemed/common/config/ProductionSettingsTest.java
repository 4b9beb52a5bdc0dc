package com.telemed.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.runtime.LaunchMode;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** The production rule on its own: which runs it applies to, and what it refuses, in which words. */
class ProductionSettingsTest {

    private static final ProductionRequirement ENVIRONMENT =
            ProductionRequirement.oneOf("webhook.environment", "SERVICE_ENVIRONMENT", "sandbox", "production");

    private static Config config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
    }

    private static Map<String, String> good() {
        Map<String, String> values = new HashMap<>();
        values.put("quarkus.datasource.username", "webhook");
        values.put("quarkus.datasource.password", "s3cr3t-from-the-vault");
        values.put("platform.trust.key", "a-deployment-key");
        values.put("webhook.environment", "production");
        return values;
    }

    @Test
    void appliesToPackagedRunsOutsideTheLocalProfile() {
        assertTrue(ProductionSettings.applies(LaunchMode.NORMAL, List.of("prod")));
        assertTrue(ProductionSettings.applies(LaunchMode.NORMAL, List.of("staging")));
        assertTrue(ProductionSettings.applies(LaunchMode.RUN, List.of("prod")));
        assertFalse(ProductionSettings.applies(LaunchMode.NORMAL, List.of("local")));
        assertFalse(ProductionSettings.applies(LaunchMode.NORMAL, List.of("prod", "local")));
        assertFalse(ProductionSettings.applies(LaunchMode.TEST, List.of("test")));
        assertFalse(ProductionSettings.applies(LaunchMode.DEVELOPMENT, List.of("dev")));
    }

    @Test
    void nothingSetRefusesEverySettingAtOnce() {
        assertEquals(List.of(
                        "quarkus.datasource.username (QUARKUS_DATASOURCE_USERNAME) is not set",
                        "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is not set",
                        "platform.trust.key (PLATFORM_TRUST_KEY) is not set",
                        "webhook.environment (SERVICE_ENVIRONMENT) is not set (sandbox or production)"),
                ProductionSettings.refusals(config(Map.of()), List.of(ENVIRONMENT)));
    }

    /** The web service has no database (platform.datasource.enabled=false): no datasource credentials are asked of it. */
    @Test
    void aServiceWithoutADatabaseIsAskedNoDatasourceCredentials() {
        assertEquals(List.of("platform.trust.key (PLATFORM_TRUST_KEY) is not set"),
                ProductionSettings.refusals(config(Map.of("platform.datasource.enabled", "false")), List.of()));
        assertEquals(List.of(), ProductionSettings.refusals(config(Map.of("platform.datasource.enabled", "false",
                "platform.trust.key", "a-deployment-key")), List.of()));
        // Said true, or not said: the datasource's credentials are required as before.
        assertEquals(List.of(
                        "quarkus.datasource.username (QUARKUS_DATASOURCE_USERNAME) is not set",
                        "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is not set"),
                ProductionSettings.refusals(config(Map.of("platform.datasource.enabled", "true",
                        "platform.trust.key", "a-deployment-key")), List.of()));
    }

    @Test
    void developmentValuesAreRefusedWithoutQuotingThem() {
        Map<String, String> values = good();
        values.put("quarkus.datasource.password", "postgres");
        values.put("platform.trust.key", "local-development-trust-key-not-a-secret");
        List<String> refusals = ProductionSettings.refusals(config(values), List.of(ENVIRONMENT));
        assertEquals(List.of(
                "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is the development value",
                "platform.trust.key (PLATFORM_TRUST_KEY) is the development value"), refusals);
        // A development value with spaces around it is still the development value.
        values.put("quarkus.datasource.password", " postgres ");
        values.put("platform.trust.key", "   ");
        assertEquals(List.of(
                "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is the development value",
                "platform.trust.key (PLATFORM_TRUST_KEY) is not set"),
                ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)));
    }

    @Test
    void theEnvironmentMustBeExactlyOneOfItsValues() {
        for (String wrong : List.of("prodution", "Production", "production ", "prod", "SANDBOX")) {
            Map<String, String> values = good();
            values.put("webhook.environment", wrong);
            assertEquals(List.of("webhook.environment (SERVICE_ENVIRONMENT) is \"" + wrong + "\", not sandbox or production"),
                    ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)), wrong);
        }
        for (String right : List.of("sandbox", "production")) {
            Map<String, String> values = good();
            values.put("webhook.environment", right);
            assertEquals(List.of(), ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)), right);
        }
    }

    @Test
    void aQuotedValueStaysOnOneLine() {
        assertEquals("\"a\\u000ab\\u0022\"", ProductionRequirement.quote("a\nb\""));
        assertEquals("\"" + "x".repeat(40) + "...\"", ProductionRequirement.quote("x".repeat(41)));
    }

    @Test
    void theMessageIsOneLineNamingEachSetting() {
        Map<String, String> values = good();
        values.remove("quarkus.datasource.password");
        values.put("webhook.environment", "prodution");
        String message = ProductionSettings.message(ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)));
        assertEquals("Refusing to start in production: quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is not set;"
                + " webhook.environment (SERVICE_ENVIRONMENT) is \"prodution\", not sandbox or production."
                + " Development values apply only under the dev, test and local profiles.", message);
    }

    @Test
    void aServiceAddsItsOwnRequirementsAfterThePlatformsOnesInAlphabeticalOrder() {
        Map<String, String> values = good();
        values.put("gateway.ops-api-key", "dev-key");
        ProductionRequirement opsKey = ProductionRequirement.secret("gateway.ops-api-key", "OPS_API_KEY", "dev-key");
        ProductionRequirement unrelated = config -> List.of("something else");
        assertEquals(List.of("gateway.ops-api-key (OPS_API_KEY) is the development value", "something else"),
                ProductionSettings.refusals(config(values), List.of(unrelated, opsKey)));
        values.remove("quarkus.datasource.username");
        assertEquals(List.of("quarkus.datasource.username (QUARKUS_DATASOURCE_USERNAME) is not set",
                        "gateway.ops-api-key (OPS_API_KEY) is the development value", "something else"),
                ProductionSettings.refusals(config(values), List.of(unrelated, opsKey)));
        assertEquals(List.of(), ProductionSettings.refusals(config(good()), List.of()));
    }

    /** The datasource's development credentials (platform-commons' defaults) exist under dev, test and local only. */
    @Test
    void developmentCredentialsExistOnlyUnderTheDevelopmentProfiles() throws IOException {
        URL defaults = ProductionSettings.class.getResource("/META-INF/microprofile-config.properties");
        for (String profile : List.of("dev", "test", "local")) {
            SmallRyeConfig config = new SmallRyeConfigBuilder().withProfile(profile)
                    .withSources(new PropertiesConfigSource(defaults, 100)).build();
            assertEquals(Optional.of("postgres"), config.getOptionalValue("quarkus.datasource.password", String.class), profile);
            assertEquals(Optional.of("postgres"), config.getOptionalValue("quarkus.datasource.username", String.class), profile);
        }
        SmallRyeConfig production = new SmallRyeConfigBuilder().withProfile("prod")
                .withSources(new PropertiesConfigSource(defaults, 100)).build();
        assertEquals(Optional.empty(), production.getOptionalValue("quarkus.datasource.password", String.class));
        assertEquals(Optional.empty(), production.getOptionalValue("quarkus.datasource.username", String.class));
        assertEquals(List.of(
                        "quarkus.datasource.username (QUARKUS_DATASOURCE_USERNAME) is not set",
                        "quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD) is not set",
                        "platform.trust.key (PLATFORM_TRUST_KEY) is not set"),
                ProductionSettings.refusals(production, List.of()));
    }
    /** Issue #38: in SERVICE_ENVIRONMENT production, transport that is not encrypted and verified is refused. */
    @Test
    void productionRefusesPlainOrUnverifiedTransport() {
        Map<String, String> values = good();
        values.put("SERVICE_ENVIRONMENT", "production");
        values.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db.example:5432/webhook?ApplicationName=webhook-service");
        values.put("kafka.bootstrap.servers", "kafka.example:9092");
        values.put("quarkus.mailer.start-tls", "OPTIONAL");
        assertEquals(List.of(
                        "quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) has sslmode prefer; production needs verify-full,"
                                + " or require or verify-ca with sslrootcert",
                        "kafka.security.protocol (KAFKA_SECURITY_PROTOCOL) is \"PLAINTEXT\"; production needs SSL or SASL_SSL",
                        "quarkus.mailer.start-tls (SMTP_START_TLS) is \"OPTIONAL\"; production needs REQUIRED"),
                ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)));

        values.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db.example:5432/webhook?sslmode=require");
        values.put("kafka.security.protocol", "SASL_PLAINTEXT");
        values.put("quarkus.mailer.start-tls", "REQUIRED");
        assertEquals(List.of(
                        "quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) has sslmode require; production needs verify-full,"
                                + " or require or verify-ca with sslrootcert",
                        "kafka.security.protocol (KAFKA_SECURITY_PROTOCOL) is \"SASL_PLAINTEXT\"; production needs SSL or SASL_SSL"),
                ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)));

        for (String verified : List.of("sslmode=verify-full", "sslmode=require&sslrootcert=/etc/ca.pem",
                "sslrootcert=/etc/ca.pem&sslmode=verify-ca")) {
            values.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db.example:5432/webhook?" + verified);
            values.put("kafka.security.protocol", "SASL_SSL");
            assertEquals(List.of(), ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)), verified);
        }
    }

    /** A sandbox, or a service without a broker or a mailer, is held to nothing more. */
    @Test
    void aSandboxOrAServiceWithoutBrokerOrMailerKeepsItsTransport() {
        Map<String, String> values = good();
        values.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db.example:5432/webhook");
        values.put("kafka.bootstrap.servers", "kafka.example:9092");
        values.put("quarkus.mailer.start-tls", "DISABLED");
        values.put("SERVICE_ENVIRONMENT", "sandbox");
        assertEquals(List.of(), ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)));

        values.put("SERVICE_ENVIRONMENT", "production");
        values.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db.example:5432/gateway?sslmode=verify-full");
        values.remove("kafka.bootstrap.servers");
        values.remove("quarkus.mailer.start-tls");
        assertEquals(List.of(), ProductionSettings.refusals(config(values), List.of(ENVIRONMENT)));
    }
}

package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static com.telemed.deploy.Chart.Service.GATEWAY;
import static com.telemed.deploy.Chart.Service.MESSAGING;
import static com.telemed.deploy.Chart.Service.WEBHOOK;
import static org.assertj.core.api.Assertions.assertThat;

/** Credentials live in Secrets only, reach exactly the services that need them, and are never invented. */
class SecretsTest {

    private static final Pattern SECRET_LIKE = Pattern.compile("PASSWORD|SECRET|KEY|TOKEN|JAAS|USERNAME|CREDENTIAL");

    private static final Manifests DEFAULTS = Chart.render(Chart.minimal());

    @Test
    void noConfigMapHoldsACredentialByNameOrByValue() {
        List<ConfigMap> configMaps = DEFAULTS.ofKind(ConfigMap.class);
        assertThat(configMaps).hasSize(8);
        for (ConfigMap configMap : configMaps) {
            assertThat(configMap.getData().keySet()).noneMatch(key -> SECRET_LIKE.matcher(key).find());
            assertThat(configMap.getData().values()).allSatisfy(value ->
                    assertThat(Chart.SECRETS.values()).noneMatch(value::contains));
            assertThat(configMap.getBinaryData()).isEmpty();
        }
    }

    @Test
    void noSecretValueAppearsOutsideSecretsAnywhereInTheRelease() throws JsonProcessingException {
        for (HasMetadata resource : DEFAULTS.all()) {
            if (resource instanceof Secret) {
                continue;
            }
            String text = new YAMLMapper().writeValueAsString(resource);
            assertThat(Chart.SECRETS.values()).as(resource.getKind() + " " + resource.getMetadata().getName())
                    .noneMatch(text::contains);
        }
    }

    @Test
    void theChartCreatesOneSecretPerCredentialWithTheGivenValues() {
        assertThat(data("telemed-trust-key")).containsExactlyInAnyOrderEntriesOf(Map.of("trust-key", Chart.SECRETS.get("secrets.trustKey.value")));
        assertThat(data("telemed-ops-api-key")).containsExactlyEntriesOf(Map.of("ops-api-key", Chart.SECRETS.get("secrets.opsApiKey.value")));
        assertThat(data("telemed-webhook-secret-keys"))
                .containsExactlyEntriesOf(Map.of("secret-keys", Chart.SECRETS.get("secrets.webhookSecretKeys.value")));
        assertThat(data("telemed-attachment-link-key"))
                .containsExactlyEntriesOf(Map.of("link-key", Chart.SECRETS.get("secrets.attachmentLinkKey.value")));
        assertThat(data("telemed-console-session-key"))
                .containsExactlyEntriesOf(Map.of("session-key", Chart.SECRETS.get("secrets.consoleSessionKey.value")));
        for (Chart.Service service : Chart.Service.withDatabase()) {
            assertThat(data(service.resourceName() + "-database")).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "username", "user-" + service.key(), "password", "pw-" + service.key() + "-9a8b7c"));
        }
        // web-service has no database: no Secret, no entry to give under secrets.databases.
        assertThat(DEFAULTS.find(Secret.class, Chart.Service.WEB.resourceName() + "-database")).isEmpty();
        assertThat(Chart.renderFailure(Chart.minimal("secrets.databases.web.username", "u")))
                .startsWith(SchemaTest.SCHEMA_FAILURE).contains("additional properties 'web' not allowed");
    }

    @Test
    void eachServiceReadsExactlyItsOwnCredentialsFromSecrets() {
        for (Chart.Service service : Chart.Service.all()) {
            Map<String, String> expected = new LinkedHashMap<>();
            if (service.database()) {
                expected.put("QUARKUS_DATASOURCE_USERNAME", service.resourceName() + "-database/username");
                expected.put("QUARKUS_DATASOURCE_PASSWORD", service.resourceName() + "-database/password");
            }
            expected.put("PLATFORM_TRUST_KEY", "telemed-trust-key/trust-key");
            if (service == GATEWAY) {
                expected.put("OPS_API_KEY", "telemed-ops-api-key/ops-api-key");
            }
            if (service == WEBHOOK) {
                expected.put("WEBHOOK_SECRET_KEYS", "telemed-webhook-secret-keys/secret-keys");
            }
            if (service == MESSAGING) {
                expected.put("ATTACHMENT_LINK_KEY", "telemed-attachment-link-key/link-key");
            }
            if (service == Chart.Service.WEB) {
                expected.put("WEB_CONSOLE_SESSION_KEY", "telemed-console-session-key/session-key");
            }
            assertThat(secretEnv(DEFAULTS.deployment(service))).as(service.module()).containsExactlyEntriesOf(expected);
        }
    }

    @Test
    void existingSecretsAreReferencedAndNoneIsCreated() {
        Manifests production = Chart.render(Map.of(), Chart.PRODUCTION);

        assertThat(production.ofKind(Secret.class)).isEmpty();
        assertThat(secretEnv(production.deployment(GATEWAY))).containsExactlyInAnyOrderEntriesOf(Map.of(
                "QUARKUS_DATASOURCE_USERNAME", "telemed-gateway-db/username",
                "QUARKUS_DATASOURCE_PASSWORD", "telemed-gateway-db/password",
                "PLATFORM_TRUST_KEY", "telemed-trust-key/trust-key",
                "OPS_API_KEY", "telemed-ops-api-key/ops-api-key"));
        assertThat(secretEnv(production.deployment(MESSAGING))).containsExactlyInAnyOrderEntriesOf(Map.of(
                "QUARKUS_DATASOURCE_USERNAME", "telemed-messaging-db/username",
                "QUARKUS_DATASOURCE_PASSWORD", "telemed-messaging-db/password",
                "PLATFORM_TRUST_KEY", "telemed-trust-key/trust-key",
                "ATTACHMENT_LINK_KEY", "telemed-attachment-link-key/link-key",
                "KAFKA_SASL_JAAS_CONFIG", "telemed-kafka/sasl-jaas-config",
                "SMTP_USERNAME", "telemed-smtp/username",
                "SMTP_PASSWORD", "telemed-smtp/password"));
        assertThat(secretEnv(production.deployment(Chart.Service.WEB))).containsExactlyInAnyOrderEntriesOf(Map.of(
                "PLATFORM_TRUST_KEY", "telemed-trust-key/trust-key",
                "WEB_CONSOLE_SESSION_KEY", "telemed-console-session-key/session-key",
                "WEB_CONSOLE_OIDC_CLIENT_SECRET", "telemed-console-oidc-client/client-secret"));
    }

    @Test
    void aMissingCredentialFailsTheInstallNamingIt() {
        Map<String, String> sets = Chart.minimal();
        sets.remove("secrets.opsApiKey.value");
        assertThat(Chart.renderFailure(sets))
                .contains("secrets.opsApiKey.value is required (or secrets.opsApiKey.existingSecret)");

        sets = Chart.minimal();
        sets.remove("secrets.databases.catalogue.password");
        assertThat(Chart.renderFailure(sets))
                .contains("secrets.databases.catalogue.password is required (or secrets.databases.catalogue.existingSecret)");

        assertThat(Chart.renderFailure(Chart.minimal("secrets.trustKey.value", "only-twenty-characters")))
                .contains("secrets.trustKey.value: every comma-separated key must be at least 32 characters");

        assertThat(Chart.renderFailure(Chart.minimal("secrets.attachmentLinkKey.value", "attachment-link-key-fedcba9876543210,short")))
                .contains("secrets.attachmentLinkKey.value: every comma-separated key must be at least 32 characters");

        assertThat(Chart.renderFailure(Chart.minimal("secrets.consoleSessionKey.value", "console-session-key-0a1b2c3d4e5f6a7b,short")))
                .contains("secrets.consoleSessionKey.value: every comma-separated key must be at least 32 characters");
        sets = Chart.minimal();
        sets.remove("secrets.consoleSessionKey.value");
        assertThat(Chart.renderFailure(sets))
                .contains("secrets.consoleSessionKey.value is required (or secrets.consoleSessionKey.existingSecret)");

        assertThat(Chart.renderFailure(Chart.minimal("kafka.securityProtocol", "SASL_SSL", "kafka.sasl.mechanism", "PLAIN")))
                .contains("secrets.kafka.saslJaasConfig is required with a SASL_* kafka.securityProtocol (or secrets.kafka.existingSecret)");
    }

    @Test
    void aNewCredentialRollsOnlyThePodsThatReadIt() {
        Manifests rotated = Chart.render(Chart.minimal("secrets.opsApiKey.value", "ops-key-rotated-0001"));

        for (Chart.Service service : Chart.Service.all()) {
            String before = checksum(DEFAULTS, service);
            String after = checksum(rotated, service);
            if (service == GATEWAY) {
                assertThat(after).isNotEqualTo(before);
            } else {
                assertThat(after).as(service.module()).isEqualTo(before);
            }
            assertThat(before).hasSize(64);
        }
    }

    private static final String CONSOLE_CLIENT_SECRET = "console-client-secret-5e6f7a8b9c0d";

    /** The console's OpenID Connect client (issue #41): identity.oidc.issuer, audience and consoleClientId, plus {@code more}. */
    private static Map<String, String> consoleOidc(String... more) {
        Map<String, String> sets = Chart.minimal("identity.oidc.issuer", "https://login.example.com/realms/telemed",
                "identity.oidc.audience", "telemed-ops", "identity.oidc.consoleClientId", "telemed-console");
        sets.putAll(Chart.ordered(more));
        return sets;
    }

    /**
     * Issue #41: the console's client secret at the OpenID Connect provider reaches web-service alone, from the
     * Secret the chart makes of secrets.consoleOidcClient.value or from the existing one named; never elsewhere.
     */
    @Test
    void theConsolesClientSecretReachesWebOnlyFromASecret() throws JsonProcessingException {
        Manifests manifests = Chart.render(consoleOidc("secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET));

        assertThat(data(manifests, "telemed-console-oidc-client")).containsExactlyEntriesOf(Map.of("client-secret", CONSOLE_CLIENT_SECRET));
        assertThat(secretEnv(manifests.deployment(Chart.Service.WEB))).containsExactlyEntriesOf(Chart.ordered(
                "PLATFORM_TRUST_KEY", "telemed-trust-key/trust-key",
                "WEB_CONSOLE_SESSION_KEY", "telemed-console-session-key/session-key",
                "WEB_CONSOLE_OIDC_CLIENT_SECRET", "telemed-console-oidc-client/client-secret"));
        for (Chart.Service service : Chart.Service.all()) {
            if (service != Chart.Service.WEB) {
                assertThat(secretEnv(manifests.deployment(service))).as(service.module())
                        .doesNotContainKey("WEB_CONSOLE_OIDC_CLIENT_SECRET")
                        .isEqualTo(secretEnv(DEFAULTS.deployment(service)));
            }
        }
        for (ConfigMap configMap : manifests.ofKind(ConfigMap.class)) {
            assertThat(configMap.getData().keySet()).as(configMap.getMetadata().getName())
                    .noneMatch(key -> SECRET_LIKE.matcher(key).find());
        }
        for (HasMetadata resource : manifests.all()) {
            if (!(resource instanceof Secret)) {
                String text = new YAMLMapper().writeValueAsString(resource);
                assertThat(text).as(resource.getKind() + " " + resource.getMetadata().getName()).doesNotContain(CONSOLE_CLIENT_SECRET);
            }
        }

        Manifests existing = Chart.render(consoleOidc("secrets.consoleOidcClient.existingSecret", "console-client-from-vault"));
        assertThat(existing.find(Secret.class, "telemed-console-oidc-client")).isEmpty();
        assertThat(existing.ofKind(Secret.class)).hasSize(DEFAULTS.ofKind(Secret.class).size());
        assertThat(secretEnv(existing.deployment(Chart.Service.WEB)))
                .containsEntry("WEB_CONSOLE_OIDC_CLIENT_SECRET", "console-client-from-vault/client-secret");
    }

    @Test
    void theConsolesClientSecretIsMadeAndReadOnlyWithItsClientId() {
        Manifests without = Chart.render(Chart.minimal("secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET));

        assertThat(without.find(Secret.class, "telemed-console-oidc-client")).isEmpty();
        assertThat(secretEnv(without.deployment(Chart.Service.WEB))).doesNotContainKey("WEB_CONSOLE_OIDC_CLIENT_SECRET");
        assertThat(checksum(without, Chart.Service.WEB)).isEqualTo(checksum(DEFAULTS, Chart.Service.WEB));

        assertThat(Chart.renderFailure(consoleOidc()))
                .contains("secrets.consoleOidcClient.value is required with identity.oidc.consoleClientId"
                        + " (or secrets.consoleOidcClient.existingSecret)");
    }

    @Test
    void aNewConsoleClientSecretRollsOnlyWeb() {
        Manifests before = Chart.render(consoleOidc("secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET));
        Manifests after = Chart.render(consoleOidc("secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET + "-rotated"));
        for (Chart.Service service : Chart.Service.all()) {
            if (service == Chart.Service.WEB) {
                assertThat(checksum(after, service)).isNotEqualTo(checksum(before, service));
            } else {
                assertThat(checksum(after, service)).as(service.module()).isEqualTo(checksum(before, service));
            }
        }
    }

    private static final String PHARMACY_A_URL = "https://orders.pharmacy-a.example/v1/orders";
    private static final String PHARMACY_A_SECRET = "pharmacy-a-signing-secret-0123456789";
    private static final String PHARMACY_EMAIL_SECRET = "pharmacy-mail-signing-secret-9876543210";

    /**
     * Issue #38: requests-service signs each order with the pharmacy's own secret. Each pharmacy whose
     * URL services.requests.env sets gets PHARMACY_<NAME>_SECRET from a Secret, in requests-service only.
     */
    @Test
    void eachConfiguredPharmacyGetsItsSigningSecretFromASecretInRequestsOnly() throws JsonProcessingException {
        Manifests manifests = Chart.render(Chart.minimal(
                "services.requests.env.PHARMACY_INTEGRATION_A_URL", PHARMACY_A_URL,
                "services.requests.env.PHARMACY_EMAIL_URL", "https://mail-gateway.pharmacies.example/orders",
                "secrets.pharmacies.integrationA", PHARMACY_A_SECRET,
                "secrets.pharmacies.email", PHARMACY_EMAIL_SECRET,
                "secrets.pharmacies.integrationB", "unused-without-a-url-0123456789abcdef"));

        assertThat(data(manifests, "telemed-pharmacies")).containsExactlyInAnyOrderEntriesOf(Map.of(
                "integration-a", PHARMACY_A_SECRET, "email", PHARMACY_EMAIL_SECRET));
        Map<String, String> requests = secretEnv(manifests.deployment(Chart.Service.REQUESTS));
        assertThat(requests).containsEntry("PHARMACY_INTEGRATION_A_SECRET", "telemed-pharmacies/integration-a")
                .containsEntry("PHARMACY_EMAIL_SECRET", "telemed-pharmacies/email")
                .doesNotContainKey("PHARMACY_INTEGRATION_B_SECRET");
        assertThat(manifests.config(Chart.Service.REQUESTS)).containsEntry("PHARMACY_INTEGRATION_A_URL", PHARMACY_A_URL);
        for (Chart.Service service : Chart.Service.all()) {
            if (service != Chart.Service.REQUESTS) {
                assertThat(secretEnv(manifests.deployment(service)).keySet()).as(service.module())
                        .noneMatch(name -> name.startsWith("PHARMACY_"));
            }
        }
        for (HasMetadata resource : manifests.all()) {
            if (!(resource instanceof Secret)) {
                String text = new YAMLMapper().writeValueAsString(resource);
                assertThat(text).as(resource.getKind() + " " + resource.getMetadata().getName())
                        .doesNotContain(PHARMACY_A_SECRET).doesNotContain(PHARMACY_EMAIL_SECRET);
            }
        }
        // Without any pharmacy URL (the sandbox's case) there is neither Secret nor variable.
        assertThat(DEFAULTS.ofKind(Secret.class)).noneMatch(secret -> secret.getMetadata().getName().equals("telemed-pharmacies"));
    }

    @Test
    void aPharmacyWithoutItsSecretOrWithAShortOneFailsTheInstallNamingIt() {
        assertThat(Chart.renderFailure(Chart.minimal("services.requests.env.PHARMACY_INTEGRATION_B_URL", PHARMACY_A_URL)))
                .contains("secrets.pharmacies.integrationB is required with services.requests.env.PHARMACY_INTEGRATION_B_URL"
                        + " (or secrets.pharmacies.existingSecret)");
        assertThat(Chart.renderFailure(Chart.minimal("services.requests.env.PHARMACY_INTEGRATION_A_URL", PHARMACY_A_URL,
                "secrets.pharmacies.integrationA", "short")))
                .contains("secrets.pharmacies.integrationA must be at least 32 characters");
        assertThat(Chart.renderFailure(Chart.minimal("services.requests.env.PHARMACY_INTEGRATION_A_SECRET", PHARMACY_A_SECRET)))
                .contains("invalid propertyName 'PHARMACY_INTEGRATION_A_SECRET'");
    }

    @Test
    void productionReadsThePharmacySecretFromItsExistingSecret() {
        Manifests production = Chart.render(Map.of(), Chart.PRODUCTION);
        assertThat(secretEnv(production.deployment(Chart.Service.REQUESTS)))
                .containsEntry("PHARMACY_INTEGRATION_A_SECRET", "telemed-pharmacies/integration-a");
        assertThat(production.config(Chart.Service.REQUESTS)).containsEntry("PHARMACY_INTEGRATION_A_URL", PHARMACY_A_URL);
    }

    @Test
    void aNewPharmacySecretRollsOnlyRequests() {
        Manifests before = Chart.render(Chart.minimal("services.requests.env.PHARMACY_INTEGRATION_A_URL", PHARMACY_A_URL,
                "secrets.pharmacies.integrationA", PHARMACY_A_SECRET));
        Manifests after = Chart.render(Chart.minimal("services.requests.env.PHARMACY_INTEGRATION_A_URL", PHARMACY_A_URL,
                "secrets.pharmacies.integrationA", PHARMACY_A_SECRET + "-rotated"));
        for (Chart.Service service : Chart.Service.all()) {
            if (service == Chart.Service.REQUESTS) {
                assertThat(checksum(after, service)).isNotEqualTo(checksum(before, service));
            } else {
                assertThat(checksum(after, service)).as(service.module()).isEqualTo(checksum(before, service));
            }
        }
    }

    private static String checksum(Manifests manifests, Chart.Service service) {
        return manifests.deployment(service).getSpec().getTemplate().getMetadata().getAnnotations().get("checksum/secrets");
    }

    private static Map<String, String> data(String secret) {
        return data(DEFAULTS, secret);
    }

    private static Map<String, String> data(Manifests manifests, String secret) {
        Map<String, String> decoded = new LinkedHashMap<>();
        Secret resource = manifests.get(Secret.class, secret);
        assertThat(resource.getType()).isEqualTo("Opaque");
        resource.getData().forEach((key, value) ->
                decoded.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        return decoded;
    }

    /** Each variable of the container that comes from a Secret, as secret/key; no literal value among them. */
    static Map<String, String> secretEnv(Deployment deployment) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar variable : deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
            assertThat(variable.getValue()).as(variable.getName()).isNull();
            var ref = variable.getValueFrom().getSecretKeyRef();
            env.put(variable.getName(), ref.getName() + "/" + ref.getKey());
        }
        return env;
    }
}

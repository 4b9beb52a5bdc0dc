package com.telemed.deploy;

import static com.telemed.deploy.Chart.Service.GATEWAY;
import static com.telemed.deploy.Chart.Service.WEB;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * People on /ops (issue #40): the gateway's sign-in settings reach its ConfigMap (and no other
 * service's), and production renders only with a way for people to sign in, as the gateway starts
 * only so (identity.IdentityProductionSettings). The console's OpenID Connect sign-in (issue #41):
 * with identity.oidc.consoleClientId, web-service alone gets the issuer, its client id and its client
 * secret (from a Secret), as its console.session.ConsoleProductionSettings wants all three together.
 */
class IdentityTest {

    private static final List<String> VARIABLES = List.of("PLATFORM_IDENTITY_LOCAL_ACCOUNTS", "PLATFORM_IDENTITY_OIDC_ISSUER",
            "PLATFORM_IDENTITY_OIDC_AUDIENCE", "PLATFORM_IDENTITY_OIDC_ROLES_CLAIM");
    private static final List<String> CONSOLE_VARIABLES = List.of("WEB_CONSOLE_OIDC_ISSUER", "WEB_CONSOLE_OIDC_CLIENT_ID",
            "WEB_CONSOLE_OIDC_CLIENT_SECRET");
    private static final String ISSUER = "https://login.example.com/realms/telemed";
    private static final String CONSOLE_CLIENT_SECRET = "console-client-secret-5e6f7a8b9c0d";
    private static final String NO_CONSOLE_ISSUER = "identity.oidc.issuer is required with identity.oidc.consoleClientId"
            + " (the console signs people in at the gateway's OpenID Connect provider)";
    private static final String NO_SIGN_IN = "identity: production needs a way for people to sign in to /ops:"
            + " identity.oidc.issuer (OpenID Connect, with identity.oidc.audience) or identity.localAccounts true"
            + " (the gateway refuses to start with neither)";

    @Test
    void nothingIsSetUnlessGiven() {
        Manifests manifests = Chart.render(Chart.minimal());

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(manifests.config(service)).as(service.module()).doesNotContainKeys(VARIABLES.toArray(String[]::new))
                    .doesNotContainKeys(CONSOLE_VARIABLES.toArray(String[]::new));
            assertThat(SecretsTest.secretEnv(manifests.deployment(service))).as(service.module())
                    .doesNotContainKeys(CONSOLE_VARIABLES.toArray(String[]::new));
        }
        // The gateway's provider alone does not turn the console's sign-in on.
        Manifests gatewayOnly = Chart.render(Chart.minimal("identity.oidc.issuer", ISSUER, "identity.oidc.audience", "telemed-ops"));
        assertThat(gatewayOnly.config(WEB)).doesNotContainKeys(CONSOLE_VARIABLES.toArray(String[]::new));
        assertThat(SecretsTest.secretEnv(gatewayOnly.deployment(WEB))).doesNotContainKey("WEB_CONSOLE_OIDC_CLIENT_SECRET");
    }

    @Test
    void theSettingsReachTheGatewayOnly() {
        Manifests manifests = Chart.render(Chart.minimal("identity.localAccounts", "false",
                "identity.oidc.issuer", "https://login.example.com/realms/telemed", "identity.oidc.audience", "telemed-ops",
                "identity.oidc.rolesClaim", "realm_access/roles"));

        assertThat(manifests.config(GATEWAY))
                .containsEntry("PLATFORM_IDENTITY_LOCAL_ACCOUNTS", "false")
                .containsEntry("PLATFORM_IDENTITY_OIDC_ISSUER", "https://login.example.com/realms/telemed")
                .containsEntry("PLATFORM_IDENTITY_OIDC_AUDIENCE", "telemed-ops")
                .containsEntry("PLATFORM_IDENTITY_OIDC_ROLES_CLAIM", "realm_access/roles");
        for (Chart.Service service : Chart.Service.all()) {
            if (service != GATEWAY) {
                assertThat(manifests.config(service)).as(service.module()).doesNotContainKeys(VARIABLES.toArray(String[]::new));
            }
        }
    }

    @Test
    void anIssuerNeedsItsAudience() {
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.issuer", "https://login.example.com/realms/telemed")))
                .contains("identity.oidc.audience is required with identity.oidc.issuer");
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.issuer", "login.example.com")))
                .startsWith(SchemaTest.SCHEMA_FAILURE).contains("/identity/oidc/issuer");
    }

    @Test
    void theConsolesSettingsReachWebServiceOnly() {
        Manifests manifests = Chart.render(Chart.minimal("identity.oidc.issuer", ISSUER, "identity.oidc.audience", "telemed-ops",
                "identity.oidc.consoleClientId", "telemed-console", "secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET));

        assertThat(manifests.config(WEB))
                .containsEntry("WEB_CONSOLE_OIDC_ISSUER", ISSUER)
                .containsEntry("WEB_CONSOLE_OIDC_CLIENT_ID", "telemed-console")
                .doesNotContainKey("WEB_CONSOLE_OIDC_CLIENT_SECRET")
                .doesNotContainKeys(VARIABLES.toArray(String[]::new));
        assertThat(SecretsTest.secretEnv(manifests.deployment(WEB)))
                .containsEntry("WEB_CONSOLE_OIDC_CLIENT_SECRET", "telemed-console-oidc-client/client-secret");
        for (Chart.Service service : Chart.Service.all()) {
            if (service != WEB) {
                assertThat(manifests.config(service)).as(service.module()).doesNotContainKeys(CONSOLE_VARIABLES.toArray(String[]::new));
                assertThat(SecretsTest.secretEnv(manifests.deployment(service))).as(service.module())
                        .doesNotContainKeys(CONSOLE_VARIABLES.toArray(String[]::new));
            }
        }
        // The gateway keeps its own settings, unchanged by the console's client.
        assertThat(manifests.config(GATEWAY)).containsEntry("PLATFORM_IDENTITY_OIDC_ISSUER", ISSUER)
                .containsEntry("PLATFORM_IDENTITY_OIDC_AUDIENCE", "telemed-ops");
    }

    @Test
    void theConsolesClientNeedsTheIssuerAndItsSecret() {
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.consoleClientId", "telemed-console",
                "secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET))).contains(NO_CONSOLE_ISSUER);
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.issuer", ISSUER, "identity.oidc.audience", "telemed-ops",
                "identity.oidc.consoleClientId", "telemed-console")))
                .contains("secrets.consoleOidcClient.value is required with identity.oidc.consoleClientId"
                        + " (or secrets.consoleOidcClient.existingSecret)");
        // The issuer's own rule still holds: the gateway needs its audience.
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.issuer", ISSUER, "identity.oidc.consoleClientId", "telemed-console",
                "secrets.consoleOidcClient.value", CONSOLE_CLIENT_SECRET)))
                .contains("identity.oidc.audience is required with identity.oidc.issuer");
    }

    @Test
    void theSchemaKnowsTheConsolesSettings() {
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.consoleClientId", "true")))
                .startsWith(SchemaTest.SCHEMA_FAILURE)
                .contains("- at '/identity/oidc/consoleClientId': got boolean, want string");
        assertThat(Chart.renderFailure(Chart.minimal("identity.oidc.consoleClientSecret", "x")))
                .startsWith(SchemaTest.SCHEMA_FAILURE)
                .contains("- at '/identity/oidc': additional properties 'consoleClientSecret' not allowed");
        assertThat(Chart.renderFailure(Chart.minimal("secrets.consoleOidcClient.clientSecret", "x")))
                .startsWith(SchemaTest.SCHEMA_FAILURE)
                .contains("- at '/secrets/consoleOidcClient': additional properties 'clientSecret' not allowed");
    }

    @Test
    void productionNeedsOpenIdConnectOrLocalAccounts() {
        assertThat(Chart.render(Map.of(), Chart.PRODUCTION).config(GATEWAY))
                .containsEntry("PLATFORM_IDENTITY_OIDC_ISSUER", "https://login.telemed.example/realms/telemed")
                .containsEntry("PLATFORM_IDENTITY_OIDC_AUDIENCE", "telemed-ops")
                .doesNotContainKey("PLATFORM_IDENTITY_LOCAL_ACCOUNTS");
        assertThat(Chart.render(Map.of(), Chart.PRODUCTION).config(WEB))
                .containsEntry("WEB_CONSOLE_OIDC_ISSUER", "https://login.telemed.example/realms/telemed")
                .containsEntry("WEB_CONSOLE_OIDC_CLIENT_ID", "telemed-console");

        // The console's client stays only with its provider.
        assertThat(Chart.renderFailure(Map.of("identity.oidc.issuer", "", "identity.localAccounts", "true"), Chart.PRODUCTION))
                .contains(NO_CONSOLE_ISSUER);
        // Without OpenID Connect (the issuer and the console's client both removed from values-production.yaml):
        Map<String, String> noOidc = Map.of("identity.oidc.issuer", "", "identity.oidc.consoleClientId", "");
        assertThat(Chart.renderFailure(noOidc, Chart.PRODUCTION)).contains(NO_SIGN_IN);
        assertThat(Chart.renderFailure(with(noOidc, "identity.localAccounts", "false"), Chart.PRODUCTION)).contains(NO_SIGN_IN);
        Manifests local = Chart.render(with(noOidc, "identity.localAccounts", "true"), Chart.PRODUCTION);
        assertThat(local.config(WEB)).doesNotContainKeys(CONSOLE_VARIABLES.toArray(String[]::new));
        assertThat(local.config(GATEWAY))
                .containsEntry("PLATFORM_IDENTITY_LOCAL_ACCOUNTS", "true")
                .doesNotContainKey("PLATFORM_IDENTITY_OIDC_ISSUER");
    }

    private static Map<String, String> with(Map<String, String> sets, String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(sets);
        more.put(key, value);
        return more;
    }
}

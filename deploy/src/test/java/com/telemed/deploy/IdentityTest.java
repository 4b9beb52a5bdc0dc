package com.telemed.deploy;

import static com.telemed.deploy.Chart.Service.GATEWAY;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * People on /ops (issue #40): the gateway's sign-in settings reach its ConfigMap (and no other
 * service's), and production renders only with a way for people to sign in, as the gateway starts
 * only so (identity.IdentityProductionSettings).
 */
class IdentityTest {

    private static final List<String> VARIABLES = List.of("PLATFORM_IDENTITY_LOCAL_ACCOUNTS", "PLATFORM_IDENTITY_OIDC_ISSUER",
            "PLATFORM_IDENTITY_OIDC_AUDIENCE", "PLATFORM_IDENTITY_OIDC_ROLES_CLAIM");
    private static final String NO_SIGN_IN = "identity: production needs a way for people to sign in to /ops:"
            + " identity.oidc.issuer (OpenID Connect, with identity.oidc.audience) or identity.localAccounts true"
            + " (the gateway refuses to start with neither)";

    @Test
    void nothingIsSetUnlessGiven() {
        Manifests manifests = Chart.render(Chart.minimal());

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(manifests.config(service)).as(service.module()).doesNotContainKeys(VARIABLES.toArray(String[]::new));
        }
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
    void productionNeedsOpenIdConnectOrLocalAccounts() {
        assertThat(Chart.render(Map.of(), Chart.PRODUCTION).config(GATEWAY))
                .containsEntry("PLATFORM_IDENTITY_OIDC_ISSUER", "https://login.telemed.example/realms/telemed")
                .containsEntry("PLATFORM_IDENTITY_OIDC_AUDIENCE", "telemed-ops")
                .doesNotContainKey("PLATFORM_IDENTITY_LOCAL_ACCOUNTS");

        assertThat(Chart.renderFailure(Map.of("identity.oidc.issuer", ""), Chart.PRODUCTION)).contains(NO_SIGN_IN);
        assertThat(Chart.renderFailure(Map.of("identity.oidc.issuer", "", "identity.localAccounts", "false"), Chart.PRODUCTION))
                .contains(NO_SIGN_IN);
        assertThat(Chart.render(Map.of("identity.oidc.issuer", "", "identity.localAccounts", "true"), Chart.PRODUCTION).config(GATEWAY))
                .containsEntry("PLATFORM_IDENTITY_LOCAL_ACCOUNTS", "true")
                .doesNotContainKey("PLATFORM_IDENTITY_OIDC_ISSUER");
    }
}

package com.telemed.gateway.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** Production refuses to start while no person could sign in to /ops, or with OpenID Connect and no audience. */
class IdentityProductionSettingsTest {

    private static final String NO_SIGN_IN = "neither local accounts (platform.identity.local-accounts"
            + " (PLATFORM_IDENTITY_LOCAL_ACCOUNTS), off in production unless true) nor OpenID Connect"
            + " (platform.identity.oidc.issuer (PLATFORM_IDENTITY_OIDC_ISSUER)) is on: no person could sign in to /ops";
    private static final String NO_AUDIENCE = "platform.identity.oidc.audience (PLATFORM_IDENTITY_OIDC_AUDIENCE)"
            + " is not set while OpenID Connect is on: a token the provider issued to any of its clients would be taken";

    private static List<String> refusals(String... keysAndValues) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 100)).build();
        return new IdentityProductionSettings().signIn().refusals(config);
    }

    @Test
    void productionNeedsLocalAccountsOrOpenIdConnect() {
        assertEquals(List.of(NO_SIGN_IN), refusals("gateway.environment", "production"));
        assertEquals(List.of(NO_SIGN_IN), refusals("gateway.environment", "production", "platform.identity.local-accounts", "false",
                "platform.identity.oidc.issuer", " "));
        assertEquals(List.of(NO_SIGN_IN), refusals("gateway.environment", "sandbox", "platform.identity.local-accounts", "false"));
        assertEquals(List.of(), refusals("gateway.environment", "production", "platform.identity.local-accounts", "true"));
        assertEquals(List.of(), refusals("gateway.environment", "sandbox"));
        assertEquals(List.of(), refusals("gateway.environment", "production",
                "platform.identity.oidc.issuer", "https://login.example/realms/telemed", "platform.identity.oidc.audience", "telemed-ops"));
    }

    @Test
    void openIdConnectNeedsItsAudience() {
        assertEquals(List.of(NO_AUDIENCE), refusals("gateway.environment", "production",
                "platform.identity.oidc.issuer", "https://login.example/realms/telemed"));
        assertEquals(List.of(NO_AUDIENCE), refusals("gateway.environment", "sandbox",
                "platform.identity.oidc.issuer", "https://login.example/realms/telemed", "platform.identity.oidc.audience", ""));
    }
}

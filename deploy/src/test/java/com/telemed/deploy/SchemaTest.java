package com.telemed.deploy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** values.schema.json refuses a wrong value before anything renders, naming the field. */
class SchemaTest {

    static final String SCHEMA_FAILURE =
            "values don't meet the specifications of the schema(s) in the following chart(s):\ntelemed:\n";

    @Test
    void replicasMustBeANumber() {
        assertThat(Chart.renderFailure(Chart.minimal("services.gateway.replicas", "two")))
                .startsWith(SCHEMA_FAILURE)
                .contains("- at '/services/gateway/replicas': got string, want integer");
    }

    @Test
    void anUnknownServiceIsRefused() {
        assertThat(Chart.renderFailure(Chart.minimal("services.gatewy.replicas", "2")))
                .startsWith(SCHEMA_FAILURE)
                .contains("- at '/services': additional properties 'gatewy' not allowed");
    }

    @Test
    void anUnknownSettingIsRefused() {
        assertThat(Chart.renderFailure(Chart.minimal("defaults.replica", "2")))
                .contains("- at '/defaults': additional properties 'replica' not allowed");
        assertThat(Chart.renderFailure(Chart.minimal("services.catalogue.service.type", "LoadBalancer")))
                .contains("- at '/services/catalogue': additional properties 'service' not allowed");
    }

    @Test
    void theEnvironmentIsSandboxOrProduction() {
        assertThat(Chart.renderFailure(Chart.minimal("global.serviceEnvironment", "staging")))
                .contains("- at '/global/serviceEnvironment': value must be one of 'sandbox', 'production'");
    }

    @Test
    void everyServiceNeedsADatabaseName() {
        assertThat(Chart.renderFailure(Chart.minimal("services.billing.database.name", "")))
                .contains("- at '/services/billing/database/name': minLength: got 0, want 1");
    }

    @Test
    void boundsOfNumbers() {
        assertThat(Chart.renderFailure(Chart.minimal("defaults.autoscaling.targetCPUUtilizationPercentage", "150")))
                .contains("- at '/defaults/autoscaling/targetCPUUtilizationPercentage': maximum: got 150, want 100");
        assertThat(Chart.renderFailure(Chart.minimal("services.webhook.autoscaling.minReplicas", "0")))
                .contains("- at '/services/webhook/autoscaling/minReplicas': minimum: got 0, want 1");
    }

    @Test
    void theGatewayServiceTypeIsOneKubernetesKnows() {
        assertThat(Chart.renderFailure(Chart.minimal("services.gateway.service.type", "Ingress")))
                .contains("- at '/services/gateway/service/type': value must be one of 'ClusterIP', 'NodePort', 'LoadBalancer'");
    }

    @Test
    void aCredentialCannotHideInTheExtraEnvironment() {
        assertThat(Chart.renderFailure(Chart.minimal("services.members.env.DB_PASSWORD", "x")))
                .contains("invalid propertyName 'DB_PASSWORD'");
    }

    @Test
    void requiredSettingsWithoutDefaults() {
        var sets = Chart.minimal();
        sets.remove("postgresql.host");
        sets.remove("global.publicUrl");
        assertThat(Chart.renderFailure(sets))
                .contains("- at '/postgresql/host': minLength: got 0, want 1")
                .contains("- at '/global/publicUrl': '' does not match pattern");
    }
}

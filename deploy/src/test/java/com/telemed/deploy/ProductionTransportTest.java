package com.telemed.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue #38: with {@code global.serviceEnvironment: production} the chart renders only transport that
 * is encrypted and whose server is verified: PostgreSQL {@code verify-full} (or {@code require} /
 * {@code verify-ca} with {@code sslrootcert}) for every service, Kafka over SSL or SASL_SSL, SMTP with
 * STARTTLS required. values.yaml's defaults (prefer, PLAINTEXT, OPTIONAL) stay usable for a sandbox.
 */
class ProductionTransportTest {

    private static final String REFUSED = "global.serviceEnvironment production refuses transport that is not encrypted and verified: ";

    @Test
    void productionValuesRenderAndASandboxKeepsTheDefaults() {
        assertThat(Chart.render(Map.of(), Chart.PRODUCTION).config(Chart.Service.BILLING).get("QUARKUS_DATASOURCE_JDBC_URL"))
                .contains("sslmode=verify-full");
        Manifests sandbox = Chart.render(Chart.minimal());
        assertThat(sandbox.config(Chart.Service.BILLING).get("QUARKUS_DATASOURCE_JDBC_URL")).contains("sslmode=prefer");
        assertThat(sandbox.config(Chart.Service.BILLING).get("KAFKA_SECURITY_PROTOCOL")).isEqualTo("PLAINTEXT");
    }

    @Test
    void everyWeakSettingIsNamedAtOnce() {
        String failure = Chart.renderFailure(Map.of("postgresql.sslmode", "prefer", "kafka.securityProtocol", "SASL_PLAINTEXT",
                "smtp.startTls", "OPTIONAL"), Chart.PRODUCTION);
        StringBuilder expected = new StringBuilder(REFUSED);
        for (String service : new String[] {"billing", "catalogue", "gateway", "members", "messaging", "requests", "webhook"}) {
            expected.append("services.").append(service)
                    .append(": PostgreSQL sslmode prefer (production needs verify-full, or require or verify-ca with sslrootcert); ");
        }
        expected.append("kafka.securityProtocol SASL_PLAINTEXT (production needs SSL or SASL_SSL); ")
                .append("smtp.startTls OPTIONAL (production needs REQUIRED)");
        assertThat(failure).contains(expected.toString());
    }

    @Test
    void oneServiceOnItsOwnServerIsHeldToTheSameRule() {
        assertThat(Chart.renderFailure(Map.of("services.billing.database.sslmode", "require"), Chart.PRODUCTION))
                .contains(REFUSED + "services.billing: PostgreSQL sslmode require (production needs verify-full, or require or"
                        + " verify-ca with sslrootcert)")
                .doesNotContain("services.gateway");
        assertThat(Chart.renderFailure(Map.of("kafka.securityProtocol", "PLAINTEXT"), Chart.PRODUCTION))
                .contains(REFUSED + "kafka.securityProtocol PLAINTEXT (production needs SSL or SASL_SSL)");
    }

    @Test
    void requireWithAStatedCaIsVerifiedEnough() {
        Manifests manifests = Chart.render(Map.of("postgresql.sslmode", "require", "postgresql.parameters.sslrootcert",
                "/etc/telemed/pg-ca/ca.crt", "kafka.securityProtocol", "SSL"), Chart.PRODUCTION);
        assertThat(manifests.config(Chart.Service.MEMBERS).get("QUARKUS_DATASOURCE_JDBC_URL"))
                .contains("sslmode=require").contains("sslrootcert=/etc/telemed/pg-ca/ca.crt");
    }

    /** Issue #38: a pharmacy receives prescriptions and patients' addresses; production posts them over https only. */
    @Test
    void aPharmacyUrlThatIsNotHttpsIsRefusedInProduction() {
        assertThat(Chart.renderFailure(Map.of("services.requests.env.PHARMACY_INTEGRATION_A_URL", "http://orders.pharmacy-a.example/v1/orders",
                        "services.requests.env.PHARMACY_EMAIL_URL", "https://mail-gateway.pharmacies.example/orders"), Chart.PRODUCTION))
                .contains("global.serviceEnvironment production refuses a pharmacy URL that is not https:"
                        + " services.requests.env.PHARMACY_INTEGRATION_A_URL");
        Manifests sandbox = Chart.render(Chart.minimal("services.requests.env.PHARMACY_INTEGRATION_A_URL", "http://127.0.0.1:9000/orders",
                "secrets.pharmacies.integrationA", "a-sandbox-pharmacy-secret-0123456789"));
        assertThat(sandbox.config(Chart.Service.REQUESTS)).containsEntry("PHARMACY_INTEGRATION_A_URL", "http://127.0.0.1:9000/orders");
    }
}

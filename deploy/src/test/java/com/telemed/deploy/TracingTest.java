package com.telemed.deploy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every service exports its trace spans to {@code tracing.otlpEndpoint} when it is given, and to
 * nothing without it (platform-commons then configures no exporter at all).
 */
class TracingTest {

    private static final String VARIABLE = "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT";

    @Test
    void noExporterUnlessAnEndpointIsGiven() {
        Manifests manifests = Chart.render(Chart.minimal());

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(manifests.config(service)).doesNotContainKey(VARIABLE);
        }
    }

    @Test
    void theEndpointReachesEveryService() {
        Manifests manifests = Chart.render(Chart.minimal("tracing.otlpEndpoint", "http://otel-collector.observability:4317"));

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(manifests.config(service)).containsEntry(VARIABLE, "http://otel-collector.observability:4317");
        }
    }

    @Test
    void anEndpointThatIsNotAnHttpUrlIsRefused() {
        assertThat(Chart.renderFailure(Chart.minimal("tracing.otlpEndpoint", "otel-collector:4317")))
                .startsWith(SchemaTest.SCHEMA_FAILURE)
                .contains("/tracing/otlpEndpoint");
    }
}

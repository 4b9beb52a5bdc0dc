package com.telemed.testkit.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String SCRAPE = """
            # HELP http_server_requests_seconds HTTP server request processing time
            # TYPE http_server_requests_seconds summary
            http_server_requests_seconds_count{method="GET",outcome="SUCCESS",status="200",uri="/v1/requests/{id}"} 3.0
            http_server_requests_seconds_sum{method="GET",outcome="SUCCESS",status="200",uri="/v1/requests/{id}"} 0.042
            # TYPE outbox_backlog gauge
            outbox_backlog 2.0
            odd{text="a \\"quoted\\" \\\\ back, slash\\nline",empty=""} NaN 1732676400000
            kafka_consumer_fetch_manager_records_lag_max{client_id="kafka-consumer-care-events",} -Inf
            """;

    @Test
    void readsNamesLabelsAndValuesAndSkipsComments() {
        PrometheusText text = PrometheusText.parse(SCRAPE);

        assertEquals(5, text.samples().size());
        assertEquals(new PrometheusText.Sample("http_server_requests_seconds_count",
                        Map.of("method", "GET", "outcome", "SUCCESS", "status", "200", "uri", "/v1/requests/{id}"), 3.0),
                text.named("http_server_requests_seconds_count").get(0));
        assertEquals(List.of(new PrometheusText.Sample("outbox_backlog", Map.of(), 2.0)), text.named("outbox_backlog"));
        PrometheusText.Sample odd = text.named("odd").get(0);
        assertEquals("a \"quoted\" \\ back, slash\nline", odd.label("text"));
        assertEquals("", odd.label("empty"));
        assertTrue(Double.isNaN(odd.value()));
        assertEquals(Double.NEGATIVE_INFINITY, text.named("kafka_consumer_fetch_manager_records_lag_max").get(0).value());
    }

    @Test
    void findsBySubsetOfLabelsAndSums() {
        PrometheusText text = PrometheusText.parse(SCRAPE);

        assertEquals(1, text.find("http_server_requests_seconds_count", Map.of("status", "200")).size());
        assertEquals(0, text.find("http_server_requests_seconds_count", Map.of("status", "500")).size());
        assertEquals(Optional.of(3.0), text.sum("http_server_requests_seconds_count", sample -> true));
        assertEquals(Optional.empty(), text.sum("job_runs_total", sample -> true));
        assertEquals(Optional.of(2.0), text.max("outbox_backlog"));
        assertEquals(Optional.empty(), text.max("odd"));
    }

    @Test
    void aLineThatIsNotASampleIsNamed() {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> PrometheusText.parse("ok 1\nbroken{label=unquoted} 1\n"));
        assertEquals("line 2 is not a Prometheus sample: broken{label=unquoted} 1", thrown.getMessage());
    }
}

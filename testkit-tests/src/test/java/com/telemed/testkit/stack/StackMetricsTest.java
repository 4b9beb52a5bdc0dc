package com.telemed.testkit.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StackMetricsTest {

    /** Part of a real requests-service scrape, trimmed. */
    private static final String REQUESTS = """
            # TYPE http_server_requests_seconds summary
            http_server_requests_seconds_count{method="GET",outcome="SUCCESS",status="200",uri="/v1/requests/{id}"} 40.0
            http_server_requests_seconds_count{method="POST",outcome="SUCCESS",status="201",uri="/v1/requests"} 10.0
            http_server_requests_seconds_count{method="POST",outcome="SERVER_ERROR",status="500",uri="/v1/requests"} 2.0
            http_server_requests_seconds_count{method="GET",outcome="SERVER_ERROR",status="503",uri="/v1/requests/{id}"} 1.0
            http_server_requests_seconds_max{method="GET",outcome="SUCCESS",status="200",uri="/v1/requests/{id}"} 0.0421
            http_server_requests_seconds_max{method="POST",outcome="SUCCESS",status="201",uri="/v1/requests"} 0.2504
            outbox_backlog 3.0
            outbox_oldest_age_seconds 12.345
            agroal_active_count{datasource="default"} 2.0
            agroal_awaiting_count{datasource="default"} 0.0
            job_runs_total{job="outbox-relay"} 812.0
            job_failures_total{job="outbox-relay"} 1.0
            job_runs_total{job="fulfilment-dispatcher"} 95.0
            job_failures_total{job="fulfilment-dispatcher"} 0.0
            """;

    private static final String WEBHOOK = """
            http_server_requests_seconds_count{method="GET",outcome="SUCCESS",status="200",uri="/ops/v1/partners/{id}/webhook"} 4.0
            http_server_requests_seconds_max{method="GET",outcome="SUCCESS",status="200",uri="/ops/v1/partners/{id}/webhook"} 0.0
            kafka_consumer_fetch_manager_records_lag_max{client_id="kafka-consumer-care-events",} 7.0
            kafka_consumer_fetch_manager_records_lag_max{client_id="kafka-consumer-messaging-events",} NaN
            agroal_active_count{datasource="default"} 1.0
            agroal_awaiting_count{datasource="default"} 3.0
            job_runs_total{job="webhook-dispatcher"} 40.0
            job_failures_total{job="webhook-dispatcher"} 0.0
            """;

    @Test
    void oneLinePerServiceThenEachJob() {
        Map<String, Optional<String>> scrapes = new LinkedHashMap<>();
        scrapes.put("requests-service", Optional.of(REQUESTS));
        scrapes.put("webhook-service", Optional.of(WEBHOOK));
        scrapes.put("billing-service", Optional.empty());

        assertEquals("""
                service           requests   5xx  max ms  outbox  oldest s kafka lag   db connections   job fails/runs
                requests-service        53     3     250       3      12.3         -         2 active            1/907
                webhook-service          4     0       0       -         -         7 1 active, 3 wait             0/40
                billing-service   not answering

                Jobs (failed/runs):
                  requests-service  outbox-relay 1/812, fulfilment-dispatcher 0/95
                  webhook-service   webhook-dispatcher 0/40
                """, StackMetrics.table(scrapes));
    }
}

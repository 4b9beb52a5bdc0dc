package com.telemed.webhook.delivery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;

/**
 * {@code webhook_deliveries_total{outcome}}: delivered, retried (an attempt failed, another follows),
 * failed (the last attempt failed), dropped (no URL set when the event arrived).
 * {@code webhook_attempt_duration_seconds{result}}: every attempt, success or failure.
 * No partner tag: unbounded cardinality.
 */
@Singleton
public class DeliveryMetrics {

    private final Counter delivered;
    private final Counter retried;
    private final Counter failed;
    private final Counter dropped;
    private final Timer succeeded;
    private final Timer unsuccessful;

    public DeliveryMetrics(MeterRegistry registry) {
        delivered = outcome(registry, "delivered");
        retried = outcome(registry, "retried");
        failed = outcome(registry, "failed");
        dropped = outcome(registry, "dropped");
        succeeded = attempts(registry, "success");
        unsuccessful = attempts(registry, "failure");
    }

    private static Counter outcome(MeterRegistry registry, String outcome) {
        return Counter.builder("webhook.deliveries").description("Webhook deliveries by outcome")
                .tag("outcome", outcome).register(registry);
    }

    private static Timer attempts(MeterRegistry registry, String result) {
        return Timer.builder("webhook.attempt.duration").description("Latency of one webhook attempt")
                .tag("result", result).publishPercentileHistogram().register(registry);
    }

    void attempt(Outcome outcome) {
        (outcome.delivered() ? succeeded : unsuccessful).record(outcome.durationMs(), TimeUnit.MILLISECONDS);
    }

    void recorded(Outcome outcome, boolean retry) {
        if (outcome.delivered()) {
            delivered.increment();
        } else if (retry) {
            retried.increment();
        } else {
            failed.increment();
        }
    }

    public void dropped(int count) {
        dropped.increment(count);
    }
}

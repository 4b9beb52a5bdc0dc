package com.telemed.webhook.intake;

import com.telemed.common.health.KafkaBrokerCheck;
import com.telemed.webhook.WebhookConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.health.api.HealthGroup;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * {@code kafka_broker_reachable}: 1 while the Kafka broker answers, 0 while it does not (NaN until
 * the first probe). Readiness leaves Kafka out (a broker outage must not take the API down), so
 * this gauge and the health group {@code /q/health/group/kafka} are where an outage shows. The
 * broker is probed by {@link KafkaBrokerCheck} (bounded to 3 s) every {@code webhook.kafka-probe-interval}
 * on a thread of its own, so a scrape never waits for the broker.
 */
@Singleton
public class KafkaBrokerGauge {

    static final String NAME = "kafka.broker.reachable";

    private final KafkaBrokerCheck check;
    private final long intervalMs;
    private final ScheduledExecutorService probe = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kafka-broker-probe");
        thread.setDaemon(true);
        return thread;
    });
    private volatile double reachable = Double.NaN;

    public KafkaBrokerGauge(@HealthGroup(KafkaBrokerCheck.GROUP) KafkaBrokerCheck check, MeterRegistry registry,
                            WebhookConfig config) {
        this.check = check;
        this.intervalMs = config.kafkaProbeInterval().toMillis();
        Gauge.builder(NAME, this, gauge -> gauge.reachable)
                .description("1 while the Kafka broker answers, 0 while it does not")
                .register(registry);
    }

    void start(@Observes StartupEvent event) {
        probe.scheduleWithFixedDelay(this::probeOnce, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        probe.shutdownNow();
    }

    private void probeOnce() {
        try {
            reachable = check.call().getStatus() == HealthCheckResponse.Status.UP ? 1 : 0;
        } catch (RuntimeException e) {
            // Never expected (the check answers DOWN instead), but an escaping exception would end the schedule.
            reachable = 0;
        }
    }
}

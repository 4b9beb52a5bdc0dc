package com.telemed.common.health;

import com.telemed.common.kafka.KafkaConnection;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.health.api.HealthGroup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * UP while the Kafka cluster answers, in the health group {@value #GROUP}
 * ({@code /q/health/group/kafka}, on the management port), <b>not</b> in readiness: a service answers HTTP without Kafka
 * (events wait in the outbox, the webhook consumer resumes where it stopped), so a broker outage
 * must not take every pod out of the load balancer. Quarkus's own Kafka check waits out the admin
 * client's 60 s API timeout when the broker is gone, so a probe would hang; this one answers
 * DOWN within three seconds.
 *
 * <p>Only in services that use Kafka: one that does not (the gateway) sets the build property
 * {@code platform.kafka.enabled=false} and leaves the Kafka client off its classpath.
 */
@HealthGroup(KafkaBrokerCheck.GROUP)
@ApplicationScoped
@IfBuildProperty(name = "platform.kafka.enabled", stringValue = "true", enableIfMissing = true)
public class KafkaBrokerCheck implements HealthCheck {

    public static final String NAME = "Kafka broker";
    public static final String GROUP = "kafka";
    private static final int TIMEOUT_MS = 2500;

    private final Admin admin;

    public KafkaBrokerCheck(@Identifier(KafkaConnection.DEFAULT_BROKER) Map<String, Object> kafka) {
        this.admin = Admin.create(KafkaConnection.clientConfig(kafka, AdminClientConfig.configNames(), Map.of(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000,
                AdminClientConfig.CLIENT_ID_CONFIG, "readiness-check")));
    }

    @Override
    public HealthCheckResponse call() {
        try {
            int nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS))
                    .nodes().get(TIMEOUT_MS + 500L, TimeUnit.MILLISECONDS).size();
            return HealthCheckResponse.named(NAME).status(nodes > 0).withData("nodes", nodes).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HealthCheckResponse.named(NAME).down().build();
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return HealthCheckResponse.named(NAME).down().withData("reason", cause.getClass().getSimpleName()).build();
        }
    }

    @PreDestroy
    public void close() {
        admin.close();
    }
}

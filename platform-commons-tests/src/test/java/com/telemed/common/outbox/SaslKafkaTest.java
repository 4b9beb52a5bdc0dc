package com.telemed.common.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.health.KafkaBrokerCheck;
import com.telemed.testkit.infra.EmbeddedKafkaBroker;
import com.telemed.testkit.kafka.TopicReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * On a cluster that requires authentication (SASL/PLAIN here, a real broker), the outbox relay and
 * the broker check connect with the service's Kafka settings, the same map the SmallRye consumers
 * get ({@code default-kafka-broker}: every {@code kafka.*} property and {@code KAFKA_*} variable),
 * and without them get nowhere.
 *
 * <p>No Quarkus application: the class runs beside the module's others, its tests one after the
 * other in its thread (junit-platform.properties).
 */
@Execution(ExecutionMode.CONCURRENT)
class SaslKafkaTest {

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = EmbeddedKafkaBroker.startWithSaslPlain(Files.createTempDirectory("telemed-sasl-kafka-"),
                "platform", "sasl-test-password");
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.stop();
        }
    }

    /** What Quarkus's map holds for a deployment with KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_* set. */
    private static Map<String, Object> serviceSettings() {
        Map<String, Object> settings = new HashMap<>(broker.clientSecurity());
        settings.put("bootstrap.servers", broker.bootstrapServers());
        settings.put("group.id", "a-service");
        return settings;
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void theRelayPublishesToAnAuthenticatingBroker() {
        Map<String, Object> reader = new HashMap<>(broker.clientSecurity());
        reader.put("bootstrap.servers", broker.bootstrapServers());
        String topic = "sasl-outbox-test";
        List<OutboxRow> rows = List.of(new OutboxRow(1, topic, "k1", "{\"id\":\"e1\"}", null),
                new OutboxRow(2, topic, "k1", "{\"id\":\"e2\"}", null),
                new OutboxRow(3, topic, "k2", "{\"id\":\"e3\"}", null));

        try (RelayProducer producer = new RelayProducer(serviceSettings())) {
            RelayProducer.Outcome outcome = producer.send(rows);
            assertNull(outcome.failure());
            assertEquals(3, outcome.acknowledged());
        }

        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(reader, topic, record -> true, 3,
                Duration.ofSeconds(60));
        assertEquals(List.of("k1:{\"id\":\"e1\"}", "k1:{\"id\":\"e2\"}"), records.stream()
                .filter(record -> record.key().equals("k1")).map(record -> record.key() + ":" + record.value()).toList());
        assertEquals(List.of("k2:{\"id\":\"e3\"}"), records.stream()
                .filter(record -> record.key().equals("k2")).map(record -> record.key() + ":" + record.value()).toList());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void withoutTheSettingsTheRelayPublishesNothing() {
        try (RelayProducer producer = new RelayProducer(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            RelayProducer.Outcome outcome = producer.send(List.of(new OutboxRow(1, "sasl-outbox-refused", "k", "{}", null)));
            assertEquals(0, outcome.acknowledged());
            assertTrue(outcome.failure() != null);
        }
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void theBrokerCheckIsUpWithTheSettingsAndDownWithout() {
        KafkaBrokerCheck withSettings = new KafkaBrokerCheck(serviceSettings());
        try {
            HealthCheckResponse up = withSettings.call();
            assertEquals(HealthCheckResponse.Status.UP, up.getStatus());
            assertEquals(1L, up.getData().orElseThrow().get("nodes"));
        } finally {
            withSettings.close();
        }
        KafkaBrokerCheck without = new KafkaBrokerCheck(Map.of("bootstrap.servers", broker.bootstrapServers()));
        try {
            assertEquals(HealthCheckResponse.Status.DOWN, without.call().getStatus());
        } finally {
            without.close();
        }
    }
}

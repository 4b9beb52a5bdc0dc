package com.telemed.common.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;

/** Test topics of their own (so tests never read each other's events) and a plain consumer. */
final class KafkaTopics {

    /** After the expected count has arrived, keep reading this long so a duplicate would show. */
    private static final Duration SETTLE = Duration.ofSeconds(2);

    private KafkaTopics() {
    }

    static String bootstrapServers() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    static String create() throws Exception {
        String topic = "outbox-test-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return topic;
    }

    /** Everything on the topic, read from the start until {@code expected} arrived (plus a settle time). */
    static List<ConsumerRecord<String, String>> read(String topic, int expected, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "outbox-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Instant deadline = Instant.now().plus(timeout);
            Instant settled = null;
            while (Instant.now().isBefore(deadline) && (settled == null || Instant.now().isBefore(settled))) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                if (settled == null && records.size() >= expected) {
                    settled = Instant.now().plus(SETTLE);
                }
            }
        }
        assertEquals(expected, records.size(), "records on " + topic);
        return records;
    }
}

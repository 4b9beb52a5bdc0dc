package com.telemed.requests.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;

/** Reads {@code care.events} from the real broker, keeping one request's key (requests are new per test). */
final class CareEventsTopic {

    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private CareEventsTopic() {
    }

    /** Every envelope of this request, in topic order, read until {@code expected} arrived plus a settle time. */
    static List<JsonNode> read(String requestId, int expected, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class),
                ConsumerConfig.GROUP_ID_CONFIG, "requests-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<JsonNode> envelopes = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(RequestEvents.TOPIC));
            Instant deadline = Instant.now().plus(timeout);
            Instant settled = null;
            while (Instant.now().isBefore(deadline) && (settled == null || Instant.now().isBefore(settled))) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (requestId.equals(record.key())) {
                        envelopes.add(json(record.value()));
                    }
                }
                if (settled == null && envelopes.size() >= expected) {
                    settled = Instant.now().plus(SETTLE);
                }
            }
        }
        assertEquals(expected, envelopes.size(), "events of request " + requestId + " on care.events: "
                + envelopes.stream().map(envelope -> envelope.path("type").asText()).toList());
        return envelopes;
    }

    private static JsonNode json(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

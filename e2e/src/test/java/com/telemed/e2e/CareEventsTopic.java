package com.telemed.e2e;

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

/**
 * Reads {@code care.events} from the platform's real broker with a plain consumer, as
 * webhook-service does. The topic is shared by the whole run, so only one request's key is kept.
 */
final class CareEventsTopic {

    /** After the expected count arrived, keep reading this long so a duplicate or extra event would show. */
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private CareEventsTopic() {
    }

    /** The envelopes of one request, in topic order; fails unless exactly {@code expected} arrive. */
    static List<JsonNode> read(String bootstrapServers, String requestId, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "e2e-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<JsonNode> envelopes = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("care.events"));
            Instant deadline = Instant.now().plusSeconds(30);
            Instant settled = null;
            while (Instant.now().isBefore(deadline) && (settled == null || Instant.now().isBefore(settled))) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (requestId.equals(record.key())) {
                        envelopes.add(parse(record.value()));
                    }
                }
                if (settled == null && envelopes.size() >= expected) {
                    settled = Instant.now().plus(SETTLE);
                }
            }
        }
        assertEquals(expected, envelopes.size(), "care.events of the request: " + envelopes.stream().map(e -> e.path("type").asText()).toList());
        return envelopes;
    }

    private static JsonNode parse(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

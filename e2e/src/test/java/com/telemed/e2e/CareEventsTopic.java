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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code care.events} from the platform's real broker with a plain consumer, as
 * webhook-service does. The topic is shared by the whole run, so {@link #read} keeps only one
 * request's key; {@link #readToEnd} reads all of it, for a test on a platform of its own.
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

    /**
     * Every record of {@code care.events}, each partition from its beginning up to the end offset
     * it had when this was called, in partition order. The caller makes sure nothing it expects
     * is still on its way (the publishers' outboxes are empty), so no settle time is needed.
     */
    static List<ConsumerRecord<String, String>> readToEnd(String bootstrapServers, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor("care.events", timeout).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            Instant deadline = Instant.now().plus(timeout);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition, timeout) < end.get(partition))) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("care.events not read to its end offsets " + end + " within " + timeout);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        records.add(record);
                    }
                }
            }
        }
        return records;
    }

    static JsonNode parse(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

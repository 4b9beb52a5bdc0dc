package com.telemed.members.member;

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

/**
 * Reads {@code member.events} from the real broker with a plain consumer, as billing would. The
 * topic is shared by every test of the run, so reads keep only one member's key (members are
 * new per test).
 */
final class MemberEventsTopic {

    /** After the expected count arrived, keep reading this long so a duplicate or extra event would show. */
    private static final Duration SETTLE = Duration.ofSeconds(2);

    private static final ObjectMapper JSON = new ObjectMapper();

    private MemberEventsTopic() {
    }

    /** Every event of this member, in topic order, read until {@code expected} arrived plus a settle time. */
    static List<ConsumerRecord<String, String>> read(String memberId, int expected, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class),
                ConsumerConfig.GROUP_ID_CONFIG, "members-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(MemberEvents.TOPIC));
            Instant deadline = Instant.now().plus(timeout);
            Instant settled = null;
            while (Instant.now().isBefore(deadline) && (settled == null || Instant.now().isBefore(settled))) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (memberId.equals(record.key())) {
                        records.add(record);
                    }
                }
                if (settled == null && records.size() >= expected) {
                    settled = Instant.now().plus(SETTLE);
                }
            }
        }
        assertEquals(expected, records.size(), "events of the member on " + MemberEvents.TOPIC + ": " + types(records));
        return records;
    }

    static List<String> read(String memberId, int expected) {
        return types(read(memberId, expected, Duration.ofSeconds(30)));
    }

    static JsonNode json(ConsumerRecord<String, String> record) {
        try {
            return JSON.readTree(record.value());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> types(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(record -> json(record).get("type").asText()).toList();
    }
}

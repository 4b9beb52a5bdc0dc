package com.telemed.testkit.kafka;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Reads a topic of the real broker with a plain consumer, as a downstream service would. Topics
 * are shared by a whole test run, so {@link #readExactly} keeps only the records a test owns (one
 * request's or member's key) and fails unless exactly the expected number arrive.
 */
public final class TopicReader {

    /** After the expected count arrived, reading goes on this long so that a duplicate or an extra record would show. */
    public static final Duration SETTLE = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final ObjectMapper JSON = new ObjectMapper();

    private TopicReader() {
    }

    /** The records of {@code topic} that {@code keep} accepts, in topic order; exactly {@code expected} of them. */
    public static List<ConsumerRecord<String, String>> readExactly(String bootstrapServers, String topic,
            Predicate<ConsumerRecord<String, String>> keep, int expected, Duration timeout) {
        return readExactly(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topic, keep, expected, timeout);
    }

    /**
     * {@link #readExactly(String, String, Predicate, int, Duration)} from a broker that wants more
     * than its address: {@code connection} holds the bootstrap servers and the client's security
     * settings (a SASL broker's {@code EmbeddedKafkaBroker.clientSecurity()}).
     */
    public static List<ConsumerRecord<String, String>> readExactly(Map<String, ?> connection, String topic,
            Predicate<ConsumerRecord<String, String>> keep, int expected, Duration timeout) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = subscribed(connection, topic)) {
            try {
                await().atMost(timeout).pollInSameThread().pollInterval(Duration.ofMillis(1))
                        .until(() -> poll(consumer, keep, records) >= expected);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // Reported below with what did arrive.
            }
            Instant settled = Instant.now().plus(SETTLE);
            while (records.size() == expected && Instant.now().isBefore(settled)) {
                poll(consumer, keep, records);
            }
        }
        assertEquals(expected, records.size(), "records on " + topic + ": " + types(records));
        return records;
    }

    /** The broker of the {@code @QuarkusTest} running ({@code kafka.bootstrap.servers}). */
    public static String configuredBootstrapServers() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    /** {@link #readExactly} for one key's records. */
    public static List<ConsumerRecord<String, String>> readKey(String bootstrapServers, String topic, String key, int expected,
            Duration timeout) {
        return readExactly(bootstrapServers, topic, record -> key.equals(record.key()), expected, timeout);
    }

    /**
     * Every record of {@code topic}, each partition from its beginning up to the end offset it had
     * when this was called, in partition order. The caller makes sure nothing it expects is still
     * on its way (the publishers' outboxes are empty), so no settle time is needed.
     */
    public static List<ConsumerRecord<String, String>> readToEnd(String bootstrapServers, String topic, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            await().atMost(timeout).pollInSameThread().pollInterval(Duration.ofMillis(1)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        records.add(record);
                    }
                }
                return partitions.stream().allMatch(partition -> consumer.position(partition, timeout) >= end.get(partition));
            });
        }
        return records;
    }

    /** A new topic of {@code partitions} partitions named {@code prefix} plus a random suffix: a test's own. */
    public static String createTopic(String bootstrapServers, String prefix, int partitions) {
        String topic = prefix + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("topic " + topic + " not created", e);
        }
        return topic;
    }

    public static JsonNode json(ConsumerRecord<String, String> record) {
        return json(record.value());
    }

    public static JsonNode json(String value) {
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<JsonNode> jsons(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(TopicReader::json).toList();
    }

    /** The envelopes' {@code type}s, in order. */
    public static List<String> types(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(record -> json(record).path("type").asText()).toList();
    }

    private static KafkaConsumer<String, String> subscribed(Map<String, ?> connection, String topic) {
        Map<String, Object> config = new java.util.HashMap<>(connection);
        config.putAll(Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    private static int poll(KafkaConsumer<String, String> consumer, Predicate<ConsumerRecord<String, String>> keep,
                            List<ConsumerRecord<String, String>> into) {
        for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
            if (keep.test(record)) {
                into.add(record);
            }
        }
        return into.size();
    }
}

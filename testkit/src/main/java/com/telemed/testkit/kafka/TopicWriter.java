package com.telemed.testkit.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes records the way the outbox relay does: a plain Kafka producer, the envelope's JSON text as value. */
public final class TopicWriter {

    /** One record: its topic, key and value. */
    public record Keyed(String topic, String key, String value) {
    }

    private TopicWriter() {
    }

    /** Sends the values under one key, in order, and returns once every one is acknowledged by all replicas. */
    public static void publish(String bootstrapServers, String topic, String key, String... values) {
        publish(bootstrapServers, Arrays.stream(values).map(value -> new Keyed(topic, key, value)).toList());
    }

    /**
     * Sends the records, each under its own key (so to the partitions the owners' relays would pick),
     * in order per key, and returns once every one is acknowledged by all replicas.
     */
    public static void publish(String bootstrapServers, List<Keyed> records) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties(bootstrapServers), new StringSerializer(),
                new StringSerializer())) {
            for (Keyed record : records) {
                producer.send(new ProducerRecord<>(record.topic(), record.key(), record.value()));
            }
            producer.flush();
        }
    }

    /**
     * Sends one record with a W3C {@code traceparent} header, as the outbox relay publishes an event
     * recorded inside a trace, and returns once it is acknowledged by all replicas.
     */
    public static void publishTraced(String bootstrapServers, String topic, String key, String value, String traceparent) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties(bootstrapServers), new StringSerializer(),
                new StringSerializer())) {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
            record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.US_ASCII));
            producer.send(record);
            producer.flush();
        }
    }

    private static Properties properties(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        return properties;
    }
}

package com.telemed.testkit.kafka;

import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes records the way the outbox relay does: a plain Kafka producer, the envelope's JSON text as value. */
public final class TopicWriter {

    private TopicWriter() {
    }

    /** Sends the values under one key, in order, and returns once every one is acknowledged by all replicas. */
    public static void publish(String bootstrapServers, String topic, String key, String... values) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(topic, key, value));
            }
            producer.flush();
        }
    }
}

package com.telemed.bench.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads care.events from its end, noting each item.approved envelope's Kafka timestamp by request id. */
final class KafkaTap implements AutoCloseable {
    final Map<String, Long> created = new ConcurrentHashMap<>();
    /** When this plain consumer had the record: what the broker and a consumer's fetch cost alone. */
    final Map<String, Long> seen = new ConcurrentHashMap<>();
    private final KafkaConsumer<String, String> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    private KafkaTap(KafkaConsumer<String, String> consumer) {
        this.consumer = consumer;
        this.thread = new Thread(this::loop, "bench-kafka-tap");
    }

    static KafkaTap start(String bootstrap) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor("care.events").stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolve the end now, before the first approval
        KafkaTap tap = new KafkaTap(consumer);
        tap.thread.setDaemon(true);
        tap.thread.start();
        return tap;
    }

    private void loop() {
        while (running) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                long now = System.currentTimeMillis();
                try {
                    JsonNode envelope = GatewayApi.JSON.readTree(record.value());
                    if ("item.approved".equals(envelope.path("type").asText())) {
                        String requestId = envelope.path("subject").path("requestId").asText();
                        created.putIfAbsent(requestId, record.timestamp());
                        seen.putIfAbsent(requestId, now);
                    }
                } catch (Exception e) {
                    // not an envelope: not ours
                }
            }
        }
        consumer.close();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
    }
}

package com.telemed.bench.webhook;

import com.telemed.bench.support.Percentiles;
import com.telemed.bench.support.Results;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The broker hop alone, in the latency part's sitting (issue 44, round 3): a producer with the outbox relay's settings
 * (RelayProducer: acks=all, idempotent, one request in flight, linger.ms 5, one record then {@code flush()}) and a
 * plain consumer with the defaults (as {@link KafkaTap}), both in the bench JVM, on a topic of their own with
 * care.events' three partitions, one record at the approvals' pace. Timed with {@code System.nanoTime()} (the
 * latency part's split is at millisecond wall clocks): send -> acknowledged (the relay's flush returns), and send ->
 * polled by the consumer. What a record costs between two JVM threads through this broker, without requests-service
 * or webhook-service: the floor under "on Kafka -> polled by a plain consumer".
 */
final class KafkaProbe {

    private static final String TOPIC = "bench.kafka-probe";
    private static final int WARM_UP = 50;

    private KafkaProbe() {
    }

    static void run(Results results, String bootstrap, int records, long pacingMs) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        Properties producerSettings = new Properties();
        producerSettings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerSettings.put(ProducerConfig.ACKS_CONFIG, "all");
        producerSettings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerSettings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        producerSettings.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        Properties consumerSettings = new Properties();
        consumerSettings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerSettings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Map<String, Long> polled = new ConcurrentHashMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerSettings, new StringSerializer(),
                new StringSerializer());
             KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerSettings, new StringDeserializer(),
                     new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(TOPIC).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            Thread polling = new Thread(() -> {
                try {
                    while (true) {
                        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                            polled.put(record.value(), System.nanoTime());
                        }
                    }
                } catch (WakeupException done) {
                    // measured
                }
            }, "bench-kafka-probe");
            polling.setDaemon(true);
            polling.start();
            List<Long> toAck = new ArrayList<>();
            List<Long> toPolled = new ArrayList<>();
            long[] sent = new long[records + WARM_UP];
            for (int i = 0; i < sent.length; i++) {
                Thread.sleep(pacingMs);
                long start = System.nanoTime();
                producer.send(new ProducerRecord<>(TOPIC, "k" + i, "r" + i));
                producer.flush();
                sent[i] = start;
                if (i >= WARM_UP) {
                    toAck.add((System.nanoTime() - start) / 1000);
                }
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (polled.size() < sent.length && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            consumer.wakeup();
            polling.join(5000);
            for (int i = WARM_UP; i < sent.length; i++) {
                Long seen = polled.get("r" + i);
                if (seen != null) {
                    toPolled.add((seen - sent[i]) / 1000);
                }
            }
            System.out.printf("Kafka alone (relay's producer settings, plain consumer, bench JVM, nanosecond clock, %d records one"
                    + " every %d ms): send -> acknowledged %s; send -> polled %s (%d of %d polled)%n", records, pacingMs,
                    Percentiles.of(toAck), Percentiles.of(toPolled), toPolled.size(), records);
            results.latencies("latency.kafkaProbe.sendToAck", "Kafka alone: send -> acknowledged (relay's settings)", toAck,
                    Results.Role.DETAIL);
            results.latencies("latency.kafkaProbe.sendToPolled", "Kafka alone: send -> polled by a plain consumer", toPolled,
                    Results.Role.DETAIL);
        }
    }
}

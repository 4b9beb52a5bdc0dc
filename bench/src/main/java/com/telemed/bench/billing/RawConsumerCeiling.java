package com.telemed.bench.billing;

import com.telemed.bench.support.ProcessCpu;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The ceiling of the catch-up: a plain {@link KafkaConsumer} in this JVM, a new group each round,
 * {@code auto.offset.reset=earliest}, String deserializers and billing-service's {@code max.poll.records}, subscribed to
 * both topics and polling until it has seen every record they hold. The clock runs from the consumer's creation (its
 * group join included, as billing-service's launch is in the catch-up's) to the last record; it does nothing with a
 * record but count it and its value's characters.
 */
final class RawConsumerCeiling {

    private static final Duration CAP = Duration.ofMinutes(10);

    record Result(long records, long chars, double seconds, double firstRecord, String cpu) {
        double perSecond() {
            return records / seconds;
        }
    }

    private RawConsumerCeiling() {
    }

    static Result run(String bootstrap, long expected, int maxPollRecords, ProcessCpu cpu) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-raw-" + System.nanoTime());
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        ProcessCpu.Snapshot before = cpu.snapshot();
        long t0 = System.nanoTime();
        long first = 0;
        long records = 0;
        long chars = 0;
        long deadline = t0 + CAP.toNanos();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(LedgerCatchUp.TOPICS);
            while (records < expected && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> batch = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> record : batch) {
                    records++;
                    chars += record.value() == null ? 0 : record.value().length();
                }
                if (first == 0 && records > 0) {
                    first = System.nanoTime();
                }
            }
            long done = System.nanoTime();
            ProcessCpu.Snapshot after = cpu.snapshot();
            return new Result(records, chars, (done - t0) / 1e9, first == 0 ? Double.NaN : (first - t0) / 1e9,
                    cpu.describe(before, after, (int) Math.max(1, records)));
        }
    }
}

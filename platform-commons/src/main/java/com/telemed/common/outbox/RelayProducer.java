package com.telemed.common.outbox;

import com.telemed.common.kafka.KafkaConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The relay's Kafka producer: idempotent, acks=all, one request in flight, so records of a
 * partition are written in the order they were sent. After a failure the producer is replaced,
 * which drops whatever it still had queued: the caller resends those rows from the table.
 */
final class RelayProducer implements AutoCloseable {

    /** How many leading rows (in send order) Kafka acknowledged, and why the next one was not. */
    record Outcome(int acknowledged, Throwable failure) {
    }

    /** The service's Kafka settings ({@link KafkaConnection}): servers, security, SASL, TLS. */
    private final Map<String, Object> kafka;
    private KafkaProducer<String, String> producer;

    RelayProducer(Map<String, Object> kafka) {
        this.kafka = Map.copyOf(kafka);
    }

    /**
     * Sends the rows in order and waits for every ack. Only a leading run of acknowledged rows
     * counts as published: a row after a failed one is sent again later, so a key's events are
     * never published past a gap (a consumer may see a duplicate, never a reordering).
     */
    synchronized Outcome send(List<OutboxRow> rows) {
        KafkaProducer<String, String> current = producer();
        List<Future<RecordMetadata>> acks = new ArrayList<>(rows.size());
        Throwable failure = null;
        try {
            for (OutboxRow row : rows) {
                Future<RecordMetadata> ack = current.send(record(row));
                acks.add(ack);
                // send() reports some failures (no metadata within max.block.ms while the broker is
                // away) as an already failed future. Stop there: a later row could otherwise get
                // through once the broker is back, and its key's events would go out past a gap.
                if (ack.isDone() && failed(ack)) {
                    break;
                }
            }
            current.flush();
        } catch (RuntimeException e) {
            // Typically a metadata TimeoutException while the broker is gone.
            failure = e;
        }
        int acknowledged = 0;
        for (Future<RecordMetadata> ack : acks) {
            try {
                ack.get();
                acknowledged++;
            } catch (ExecutionException e) {
                failure = e.getCause();
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = e;
                break;
            }
        }
        if (failure != null) {
            reset();
        }
        return new Outcome(acknowledged, failure);
    }

    /** The row as a record; its trace context, if any, as the W3C {@code traceparent} header the consumers continue. */
    static ProducerRecord<String, String> record(OutboxRow row) {
        ProducerRecord<String, String> record = new ProducerRecord<>(row.topic(), row.key(), row.payload());
        if (row.traceparent() != null) {
            record.headers().add(Outbox.TRACEPARENT, row.traceparent().getBytes(StandardCharsets.US_ASCII));
        }
        return record;
    }

    private static boolean failed(Future<RecordMetadata> ack) {
        try {
            ack.get();
            return false;
        } catch (ExecutionException | InterruptedException e) {
            return true;
        }
    }

    private KafkaProducer<String, String> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(KafkaConnection.clientConfig(kafka, ProducerConfig.configNames(), Map.ofEntries(
                    Map.entry(ProducerConfig.CLIENT_ID_CONFIG, "outbox-relay"),
                    Map.entry(ProducerConfig.ACKS_CONFIG, "all"),
                    Map.entry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                    Map.entry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1),
                    // Never a wait (issue 44): send() only queues the tick's rows and flush() then makes every batch
                    // sendable at once, whatever linger.ms. Kept at 5 (Kafka 4's default, set here so no client
                    // upgrade changes it) rather than 0: with one request in flight, 0 would send the tick's first
                    // row alone and the rest in a second request after its ack. Measured by
                    // bench/webhook-delivery.sh: approve response -> on Kafka p50 -5 ms, p99 2 ms on a quiet machine.
                    Map.entry(ProducerConfig.LINGER_MS_CONFIG, 5),
                    // Bounded waits: a tick holds a database transaction while it waits for Kafka.
                    Map.entry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000),
                    Map.entry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000),
                    Map.entry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000),
                    // Fewer "could not be established" warnings from the client while the broker is away.
                    Map.entry(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 250),
                    Map.entry(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 2_000))),
                    new StringSerializer(), new StringSerializer());
        }
        return producer;
    }

    private void reset() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }
}

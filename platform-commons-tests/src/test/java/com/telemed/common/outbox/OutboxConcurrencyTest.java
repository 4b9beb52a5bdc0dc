package com.telemed.common.outbox;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Relays on several replicas: one works at a time, each event goes out once. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxConcurrencyTest {

    @Inject
    Outbox outbox;

    @Inject
    OutboxRelay relay;

    @Inject
    ObjectMapper objectMapper;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void relaysRunningAtOncePublishEachEventExactlyOnce() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        List<String> ids = new ArrayList<>();
        List<EventEnvelope> envelopes = new ArrayList<>();
        for (int seq = 0; seq < 300; seq++) {
            EventEnvelope envelope = EventEnvelope.create("member.updated", "p-1", EventSubject.member("k" + (seq % 3)),
                    objectMapper.createObjectNode().put("seq", seq), null);
            envelopes.add(envelope);
            ids.add(envelope.id());
        }
        // One commit, so both relays (and the scheduled one) find a full table at once.
        QuarkusTransaction.requiringNew().run(() -> envelopes.forEach(e -> outbox.publish(topic, e.subject().memberId(), e)));

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> published = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                published.add(threads.submit(() -> {
                    start.await();
                    int total = 0;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (OutboxRows.pending(dataSource, topic) > 0 && System.nanoTime() < deadline) {
                        total += relay.relayBatch();
                    }
                    return total;
                }));
            }
            start.countDown();
            for (Future<Integer> count : published) {
                count.get(90, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, 300, Duration.ofSeconds(30));
        List<String> arrived = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            arrived.add(objectMapper.readTree(record.value()).get("id").asText());
        }
        assertEquals(ids.stream().sorted().toList(), arrived.stream().sorted().toList(), "each event exactly once");
        Map<String, List<Integer>> sequences = OutboxTest.sequencesByKey(records);
        for (int k = 0; k < 3; k++) {
            int first = k;
            assertEquals(IntStream.range(0, 300).filter(seq -> seq % 3 == first).boxed().toList(), sequences.get("k" + k));
        }
    }

    @Test
    void aRelayWithoutTheLockDoesNothing() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        EventEnvelope envelope = EventEnvelope.create("member.updated", "p-1", EventSubject.member("m-9"),
                objectMapper.createObjectNode().put("seq", 0), null);
        try (Connection otherReplica = dataSource.getConnection()) {
            otherReplica.setAutoCommit(false);
            try (PreparedStatement lock = otherReplica.prepareStatement("select pg_try_advisory_xact_lock(?)")) {
                lock.setLong(1, OutboxRelay.LOCK_ID);
                // This service's own scheduled relay may hold the lock for a tick: take it once that tick is done.
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    try (ResultSet result = lock.executeQuery()) {
                        result.next();
                        return result.getBoolean(1);
                    }
                });
            }
            QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, "m-9", envelope));

            assertEquals(0, relay.relayBatch());
            // Several scheduled ticks pass, all of them locked out too.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> OutboxRows.pending(dataSource, topic) == 1);

            otherReplica.rollback();  // The other replica's transaction ends and so does its lock.
        }
        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, 1, Duration.ofSeconds(30));
        assertEquals(envelope.id(), objectMapper.readTree(records.get(0).value()).get("id").asText());
    }
}

package com.telemed.common.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionalException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The outbox against real PostgreSQL and Kafka, with the scheduled relay doing the publishing. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxTest {

    private static final Duration ARRIVAL = Duration.ofSeconds(30);

    @Inject
    Outbox outbox;

    @Inject
    EntityManager entityManager;

    @Inject
    ObjectMapper objectMapper;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void committedEventArrivesOnceWithTheExactEnvelopeAndKey() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        String memberEvent = UUID.randomUUID().toString();
        String itemEvent = UUID.randomUUID().toString();
        Instant occurredAt = Instant.parse("2026-11-21T09:30:00Z");
        QuarkusTransaction.requiringNew().run(() -> {
            entityManager.persist(ProbeNote.of("member created"));
            outbox.publish(topic, "m-1", new EventEnvelope(memberEvent, "member.created", "p-1", occurredAt,
                    EventSubject.member("m-1"), objectMapper.createObjectNode().put("email", "jane@example.com"), null));
            outbox.publish(topic, "r-1", new EventEnvelope(itemEvent, "item.approved", "p-1", occurredAt.plusMillis(7),
                    EventSubject.item("r-1", "i-1").withPrescriber("dr-1"),
                    objectMapper.createObjectNode().put("status", "approved"),
                    objectMapper.createObjectNode().put("event", "item.approved").put("itemId", "i-1")));
        });

        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, 2, ARRIVAL);

        Map<String, String> byKey = new HashMap<>();
        records.forEach(record -> byKey.put(record.key(), record.value()));
        assertEquals(Map.of(
                "m-1", "{\"id\":\"" + memberEvent + "\",\"type\":\"member.created\",\"partnerId\":\"p-1\","
                        + "\"occurredAt\":\"2026-11-21T09:30:00.000Z\",\"subject\":{\"memberId\":\"m-1\"},"
                        + "\"data\":{\"email\":\"jane@example.com\"},\"webhook\":null}",
                "r-1", "{\"id\":\"" + itemEvent + "\",\"type\":\"item.approved\",\"partnerId\":\"p-1\","
                        + "\"occurredAt\":\"2026-11-21T09:30:00.007Z\","
                        + "\"subject\":{\"requestId\":\"r-1\",\"itemId\":\"i-1\",\"prescriberId\":\"dr-1\"},"
                        + "\"data\":{\"status\":\"approved\"},\"webhook\":{\"event\":\"item.approved\",\"itemId\":\"i-1\"}}"),
                byKey);
        assertEquals(0, OutboxRows.pending(dataSource, topic));
        // The envelope reads back into the record a consumer would use.
        assertEquals(memberEvent, objectMapper.readValue(byKey.get("m-1"), EventEnvelope.class).id());
        assertEquals(occurredAt, objectMapper.readValue(byKey.get("m-1"), EventEnvelope.class).occurredAt());
    }

    @Test
    void rolledBackTransactionPublishesNothing() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        ProbeNote note = ProbeNote.of("rolled back");
        assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            entityManager.persist(note);
            outbox.publish(topic, "m-2", event("member.updated", "m-2", 1));
            throw new IllegalStateException("the state change fails after the event was written");
        }));
        assertEquals(0, OutboxRows.pending(dataSource, topic));
        assertEquals(null, QuarkusTransaction.requiringNew().call(() -> entityManager.find(ProbeNote.class, note.id)));

        // A later committed event arrives, and it is the only one.
        EventEnvelope marker = event("member.updated", "m-2", 2);
        QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, "m-2", marker));
        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, 1, ARRIVAL);
        assertEquals(marker.id(), objectMapper.readTree(records.get(0).value()).get("id").asText());
    }

    @Test
    void publishingOutsideATransactionIsRefused() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        assertThrows(TransactionalException.class, () -> outbox.publish(topic, "m-3", event("member.updated", "m-3", 1)));
        assertEquals(0, OutboxRows.pending(dataSource, topic));
    }

    @Test
    void twoHundredEventsForThreeKeysArriveInPerKeyOrder() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        List<String> keys = List.of("a", "b", "c");
        // One transaction per event, so the relay's ticks interleave with the commits.
        for (int seq = 0; seq < 200; seq++) {
            String key = keys.get(seq % 3);
            EventEnvelope envelope = event("member.updated", key, seq);
            QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, key, envelope));
        }

        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, 200, ARRIVAL);

        Map<String, List<Integer>> sequences = sequencesByKey(records);
        for (int k = 0; k < 3; k++) {
            int first = k;
            assertEquals(IntStream.range(0, 200).filter(seq -> seq % 3 == first).boxed().toList(),
                    sequences.get(keys.get(k)), "order of key " + keys.get(k));
        }
    }

    private EventEnvelope event(String type, String memberId, int seq) {
        return EventEnvelope.create(type, "p-1", EventSubject.member(memberId),
                objectMapper.createObjectNode().put("seq", seq), null);
    }

    /** The data.seq values per message key, in the order the topic delivered them. */
    static Map<String, List<Integer>> sequencesByKey(List<ConsumerRecord<String, String>> records) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        Map<String, List<Integer>> sequences = new HashMap<>();
        for (ConsumerRecord<String, String> record : records) {
            sequences.computeIfAbsent(record.key(), key -> new ArrayList<>())
                    .add(mapper.readTree(record.value()).get("data").get("seq").asInt());
        }
        return sequences;
    }
}

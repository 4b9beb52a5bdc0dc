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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Nothing is lost while Kafka is down: events wait in the table and go out, in order, once it is back. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxKafkaOutageTest {

    @Inject
    Outbox outbox;

    @Inject
    ObjectMapper objectMapper;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void eventsPublishedWhileKafkaIsDownArriveOnceInOrderAfterItReturns() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        var kafka = InfrastructureResource.running().embeddedKafka();
        kafka.stop();
        List<String> ids = new ArrayList<>();
        try {
            for (int seq = 0; seq < 30; seq++) {
                String key = "k" + (seq % 3);
                EventEnvelope envelope = EventEnvelope.create("member.updated", "p-1", EventSubject.member(key),
                        objectMapper.createObjectNode().put("seq", seq), null);
                ids.add(envelope.id());
                QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, key, envelope));
            }
            // The relay tries (and fails) more than once in this window: every row stays waiting throughout.
            await().during(Duration.ofSeconds(7)).atMost(Duration.ofSeconds(9))
                    .until(() -> OutboxRows.pending(dataSource, topic) == 30);
        } finally {
            kafka.start();
        }

        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, 30, Duration.ofSeconds(90));

        List<String> arrived = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            arrived.add(objectMapper.readTree(record.value()).get("id").asText());
        }
        assertEquals(ids.stream().sorted().toList(), arrived.stream().sorted().toList(), "each event exactly once");
        Map<String, List<Integer>> sequences = OutboxTest.sequencesByKey(records);
        for (int k = 0; k < 3; k++) {
            int first = k;
            assertEquals(IntStream.range(0, 30).filter(seq -> seq % 3 == first).boxed().toList(), sequences.get("k" + k));
        }
        assertEquals(0, OutboxRows.pending(dataSource, topic));
    }
}

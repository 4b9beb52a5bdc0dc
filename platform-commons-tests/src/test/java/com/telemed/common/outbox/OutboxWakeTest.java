package com.telemed.common.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.OtherSettings;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A commit wakes the relay: with a poll interval of an hour, only the wake-up can put the event
 * on Kafka within the test's wait.
 */
@QuarkusTest
@TestProfile(OtherSettings.class)
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxWakeTest {

    @Inject
    Outbox outbox;

    @Inject
    ObjectMapper objectMapper;

    @Test
    void eachCommitWakesTheRelay() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-test-", 3);
        for (int seq = 0; seq < 3; seq++) {
            EventEnvelope envelope = EventEnvelope.create("member.updated", "p-1", EventSubject.member("m-1"),
                    objectMapper.createObjectNode().put("seq", seq), null);
            QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, "m-1", envelope));

            // Fails unless all seq + 1 events are on the topic within 20 s, long before the hourly poll.
            List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic, record -> true, seq + 1, Duration.ofSeconds(20));

            assertEquals(envelope.id(), objectMapper.readTree(records.get(seq).value()).get("id").asText());
        }
    }
}

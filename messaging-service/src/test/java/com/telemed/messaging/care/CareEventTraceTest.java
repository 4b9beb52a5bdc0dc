package com.telemed.messaging.care;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * A care event is handled in the trace of the call that recorded it: the consumer's line for the
 * event carries the trace id of the record's {@code traceparent} header (as the outbox relay sets
 * it), with the caller's span as parent; a record without the header gets a trace of its own.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class CareEventTraceTest {

    /** A line of the consumer: its message and the trace entries of its log context. */
    record Line(String message, String traceId, String parentId) {
    }

    private static String event(String type) {
        return "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"" + type + "\",\"partnerId\":\"p-trace\","
                + "\"occurredAt\":\"" + Instant.now() + "\",\"subject\":{\"requestId\":\"" + UUID.randomUUID()
                + "\",\"memberId\":\"" + UUID.randomUUID() + "\"},\"data\":{},\"webhook\":null}";
    }

    @Test
    void theConsumersLineCarriesTheTraceOfTheRecordsTraceparent() {
        List<Line> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                Map<String, String> mdc = ((ExtLogRecord) record).getMdcCopy();
                lines.add(new Line(((ExtLogRecord) record).getFormattedMessage(), mdc.get("traceId"), mdc.get("parentId")));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger consumer = Logger.getLogger(CareEventConsumer.class.getName());
        consumer.addHandler(capture);
        try {
            String bootstrap = InfrastructureResource.running().kafka().bootstrapServers();
            String key = UUID.randomUUID().toString();
            TopicWriter.publishTraced(bootstrap, "care.events", key, event("request.all_approved"),
                    "00-6e0c63257de34c92bf9efcd03927272e-7a085853722dc6d2-01");
            TopicWriter.publish(bootstrap, "care.events", key, event("item.canceled"));

            // Other tests' events may be consumed meanwhile: each line is looked for, not counted.
            Line traced = new Line("care.events: request.all_approved handled", "6e0c63257de34c92bf9efcd03927272e",
                    "7a085853722dc6d2");
            await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains(traced)
                    && lines.stream().anyMatch(line -> line.message().equals("care.events: item.canceled handled")));
            Line untraced = lines.stream().filter(line -> line.message().equals("care.events: item.canceled handled"))
                    .findFirst().orElseThrow();
            assertTrue(untraced.traceId() != null && untraced.traceId().matches("[0-9a-f]{32}"), untraced.toString());
            assertNotEquals(traced.traceId(), untraced.traceId());
            assertEquals(null, untraced.parentId());
        } finally {
            consumer.removeHandler(capture);
        }
    }
}

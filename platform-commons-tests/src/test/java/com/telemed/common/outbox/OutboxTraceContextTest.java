package com.telemed.common.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * An event keeps the trace context of the call that recorded it: the outbox row takes the current
 * span's W3C traceparent and the relay publishes it as the record's {@code traceparent} header; an
 * event recorded outside any trace goes without one.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxTraceContextTest {

    private static final Duration ARRIVAL = Duration.ofSeconds(30);

    @Inject
    Outbox outbox;

    @Inject
    ObjectMapper objectMapper;

    @Inject
    Tracer tracer;

    @Test
    void anEventRecordedInASpanCarriesItsTraceparentToKafka() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-trace-", 1);
        Span span = tracer.spanBuilder("records an event").startSpan();
        SpanContext recorded = span.getSpanContext();
        try (Scope ignored = span.makeCurrent()) {
            QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, "m-1", event("m-1")));
        } finally {
            span.end();
        }

        ConsumerRecord<String, String> record = single(topic);
        assertEquals("00-" + recorded.getTraceId() + "-" + recorded.getSpanId() + "-01", traceparent(record));
    }

    @Test
    void anEventRecordedOutsideATraceHasNoTraceparent() throws Exception {
        String topic = TopicReader.createTopic(TopicReader.configuredBootstrapServers(), "outbox-trace-", 1);
        assertEquals(false, Span.current().getSpanContext().isValid());
        assertNull(Outbox.traceparent());
        QuarkusTransaction.requiringNew().run(() -> outbox.publish(topic, "m-2", event("m-2")));

        ConsumerRecord<String, String> record = single(topic);
        assertNull(record.headers().lastHeader(Outbox.TRACEPARENT));
    }

    private static ConsumerRecord<String, String> single(String topic) throws Exception {
        List<ConsumerRecord<String, String>> records = TopicReader.readExactly(TopicReader.configuredBootstrapServers(), topic,
                record -> true, 1, ARRIVAL);
        return records.get(0);
    }

    private static String traceparent(ConsumerRecord<String, String> record) {
        Header header = record.headers().lastHeader(Outbox.TRACEPARENT);
        return header == null ? null : new String(header.value(), StandardCharsets.US_ASCII);
    }

    private EventEnvelope event(String memberId) {
        return new EventEnvelope(UUID.randomUUID().toString(), "member.updated", "p-1", Instant.parse("2026-11-27T03:00:00Z"),
                EventSubject.member(memberId), objectMapper.createObjectNode().put("seq", 1), null);
    }
}

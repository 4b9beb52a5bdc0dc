package com.telemed.common.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.outbox.Outbox;
import com.telemed.common.trace.RecordTraces;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.faulttolerance.api.Guard;
import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.jboss.logging.Logger;

/**
 * How a service consumes a topic of event envelopes one record at a time, in partition order (messaging-service's
 * {@code care.CareEventConsumer}, requests-service's {@code catalogue.CatalogueCopyConsumer}): the consumer's
 * {@code @Incoming @Blocking} method hands each record here with its headers, and keeps only what is its own (the
 * channel, the envelope's type, what an event does). A record is acknowledged when that method returns, after the
 * handler's transaction committed.
 *
 * <ul>
 *   <li>While the handler fails (the database is gone) the record is handled again, every second, for as long as it
 *       takes: the partition waits, nothing is skipped.</li>
 *   <li>A record that is not an envelope of the type, or that the handler finds unusable ({@link NotAnEvent}, or a
 *       {@link JsonProcessingException} reading its data), cannot become one by waiting: it is logged (the
 *       exception's class, never the record) and skipped.</li>
 *   <li>Each record is handled in the trace of the call that recorded it (its {@code traceparent} header,
 *       {@link RecordTraces}), so the handler's lines carry that call's trace id.</li>
 * </ul>
 *
 * <p>A helper the consumer holds, not a base class: the consumer stays a plain bean. Needs the Kafka client and
 * SmallRye Fault Tolerance, which every consuming service brings.
 */
public final class ConsumedEvents<E> {

    /** What the handler does with one event; a {@link JsonProcessingException} makes the record unusable. */
    @FunctionalInterface
    public interface Handler<E> {
        void handle(E event) throws JsonProcessingException;
    }

    /** An event no wait can make usable (a field the handler needs is missing): the record is skipped. */
    public static final class NotAnEvent extends IllegalArgumentException {
        public NotAnEvent(String message) {
            super(message);
        }
    }

    private final String topic;
    private final Class<E> type;
    private final String what;
    private final ObjectMapper json;
    private final Tracer tracer;
    private final Logger log;
    private final Guard untilHandled;

    /**
     * @param topic  the topic, as lines and the span name ({@code <topic> process}) show it
     * @param type   the envelope's record
     * @param what   what a record that is skipped is not ({@code "an event envelope"})
     * @param log    the consumer's logger: its lines are the consumer's
     */
    public ConsumedEvents(String topic, Class<E> type, String what, ObjectMapper json, Tracer tracer, Logger log) {
        this.topic = topic;
        this.type = type;
        this.what = what;
        this.json = json;
        this.tracer = tracer;
        this.log = log;
        this.untilHandled = Guard.create()
                .withDescription(topic + " consumer")
                .withRetry().maxRetries(-1).delay(1, ChronoUnit.SECONDS).maxDuration(0, ChronoUnit.SECONDS)
                .jitter(0, ChronoUnit.MILLIS).done()
                .build();
    }

    /** Handles one record (its value and headers) with {@code handler}, as the class comment says. */
    public void consume(String record, Headers headers, Handler<E> handler) {
        Header header = headers == null ? null : headers.lastHeader(Outbox.TRACEPARENT);
        String traceparent = header == null ? null : new String(header.value(), StandardCharsets.US_ASCII);
        untilHandled.get(() -> {
            RecordTraces.continued(tracer, topic + " process", traceparent, () -> read(record, handler));
            return null;
        }, Void.class);
    }

    private void read(String record, Handler<E> handler) {
        E event;
        try {
            event = json.readValue(record, type);
        } catch (JsonProcessingException | IllegalArgumentException notAnEnvelope) {
            skip(notAnEnvelope);
            return;
        }
        try {
            handler.handle(event);
        } catch (JsonProcessingException | NotAnEvent notAnEvent) {
            skip(notAnEvent);
        }
    }

    private void skip(Exception why) {
        log.warnf("skipped a %s record that is not %s (%s)", topic, what, why.getClass().getName());
    }
}

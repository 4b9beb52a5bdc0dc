package com.telemed.messaging.care;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.outbox.Outbox;
import com.telemed.common.trace.RecordTraces;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.jboss.logging.Logger;

/**
 * {@code care.events} (group {@code messaging-service}), one record at a time in partition order.
 * A record is acknowledged when this method returns, after its transaction committed. While the
 * database fails the record is retried, every second, for as long as it takes (the partition waits;
 * nothing is skipped). A record that is not an envelope cannot become one by waiting: it is logged
 * (the parser's exception class, never the record) and skipped. Each record is handled in the trace
 * of the call that recorded it (its {@code traceparent} header), and one line names the event's type:
 * the consumer's lines for an event carry that call's trace id.
 */
@ApplicationScoped
public class CareEventConsumer {

    private static final Logger LOG = Logger.getLogger(CareEventConsumer.class);

    private final SystemMessages systemMessages;
    private final ObjectMapper json;
    private final Tracer tracer;

    public CareEventConsumer(SystemMessages systemMessages, ObjectMapper json, Tracer tracer) {
        this.systemMessages = systemMessages;
        this.json = json;
        this.tracer = tracer;
    }

    @Incoming("care-events")
    @Blocking
    @Retry(maxRetries = -1, delay = 1, delayUnit = ChronoUnit.SECONDS, maxDuration = 0, jitter = 0)
    public void consume(String envelope, IncomingKafkaRecordMetadata<String, String> record) {
        Header traceparent = record.getHeaders().lastHeader(Outbox.TRACEPARENT);
        RecordTraces.continued(tracer, "care.events process",
                traceparent == null ? null : new String(traceparent.value(), StandardCharsets.US_ASCII), () -> handle(envelope));
    }

    private void handle(String envelope) {
        CareEvent event;
        try {
            event = json.readValue(envelope, CareEvent.class);
        } catch (JsonProcessingException notAnEnvelope) {
            LOG.warnf("skipped a care.events record that is not an event envelope (%s)", notAnEnvelope.getClass().getName());
            return;
        }
        systemMessages.apply(event);
        LOG.infof("care.events: %s handled", event.type());
    }
}

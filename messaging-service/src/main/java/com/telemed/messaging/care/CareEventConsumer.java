package com.telemed.messaging.care;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.kafka.ConsumedEvents;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code care.events} (group {@code messaging-service}), one record at a time in partition order, as
 * platform-commons {@link ConsumedEvents} consumes (retried every second while the database fails, a record that
 * is not an envelope skipped, each handled in the trace of the call that recorded it). Each event becomes its
 * system message ({@link SystemMessages}), and one line names its type.
 */
@ApplicationScoped
public class CareEventConsumer {

    private static final Logger LOG = Logger.getLogger(CareEventConsumer.class);

    private final SystemMessages systemMessages;
    private final ConsumedEvents<CareEvent> events;

    public CareEventConsumer(SystemMessages systemMessages, ObjectMapper json, Tracer tracer) {
        this.systemMessages = systemMessages;
        this.events = new ConsumedEvents<>("care.events", CareEvent.class, "an event envelope", json, tracer, LOG);
    }

    @Incoming("care-events")
    @Blocking
    public void consume(String envelope, IncomingKafkaRecordMetadata<String, String> record) {
        events.consume(envelope, record.getHeaders(), this::handle);
    }

    private void handle(CareEvent event) {
        systemMessages.apply(event);
        LOG.infof("care.events: %s handled", event.type());
    }
}

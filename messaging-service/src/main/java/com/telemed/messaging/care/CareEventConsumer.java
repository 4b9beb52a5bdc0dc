package com.telemed.messaging.care;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code care.events} (group {@code messaging-service}), one record at a time in partition order.
 * A record is acknowledged when this method returns, after its transaction committed. While the
 * database fails the record is retried, every second, for as long as it takes (the partition waits;
 * nothing is skipped). A record that is not an envelope cannot become one by waiting: it is logged
 * (the parser's exception class, never the record) and skipped.
 */
@ApplicationScoped
public class CareEventConsumer {

    private static final Logger LOG = Logger.getLogger(CareEventConsumer.class);

    private final SystemMessages systemMessages;
    private final ObjectMapper json;

    public CareEventConsumer(SystemMessages systemMessages, ObjectMapper json) {
        this.systemMessages = systemMessages;
        this.json = json;
    }

    @Incoming("care-events")
    @Blocking
    @Retry(maxRetries = -1, delay = 1, delayUnit = ChronoUnit.SECONDS, maxDuration = 0, jitter = 0)
    public void consume(String envelope) {
        CareEvent event;
        try {
            event = json.readValue(envelope, CareEvent.class);
        } catch (JsonProcessingException notAnEnvelope) {
            LOG.warnf("skipped a care.events record that is not an event envelope (%s)", notAnEnvelope.getClass().getName());
            return;
        }
        systemMessages.apply(event);
    }
}

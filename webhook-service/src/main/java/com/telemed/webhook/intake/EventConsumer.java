package com.telemed.webhook.intake;

import com.telemed.webhook.delivery.ThrottledLog;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code care.events} and {@code messaging.events}, in batches (group {@code webhook-service}).
 * A batch is acknowledged when this method returns, which is after its transaction committed:
 * an event is never acknowledged before it is stored. While the database fails, the batch is
 * retried here (the partition waits; nothing is skipped). Batches are handed to workers concurrently
 * ({@code ordered = false}; {@link Intake#record} then stores them one at a time per replica): webhook order is not
 * guaranteed by the contract, the throttled commit strategy commits an offset only when every record before it is
 * acknowledged, and duplicates of other replicas meet on the unique event id.
 */
@ApplicationScoped
public class EventConsumer {

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);
    private static final long RETRY_MS = 1000;

    private final Intake intake;
    private final ThrottledLog failures = new ThrottledLog(LOG, "Storing consumed events");
    private volatile boolean stopping;

    public EventConsumer(Intake intake) {
        this.intake = intake;
    }

    @Incoming("care-events")
    @Blocking(ordered = false)
    public void careEvents(List<String> envelopes) {
        store(envelopes);
    }

    @Incoming("messaging-events")
    @Blocking(ordered = false)
    public void messagingEvents(List<String> envelopes) {
        store(envelopes);
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    private void store(List<String> envelopes) {
        while (true) {
            try {
                intake.accept(envelopes);
                failures.recovered();
                return;
            } catch (Exception e) {
                failures.failed(e);
                if (stopping) {
                    // Not acknowledged: consumed again after the restart.
                    throw new IllegalStateException("shutting down before the batch was stored");
                }
                try {
                    Thread.sleep(RETRY_MS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted before the batch was stored");
                }
            }
        }
    }
}

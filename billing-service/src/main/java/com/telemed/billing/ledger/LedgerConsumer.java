package com.telemed.billing.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code care.events} and {@code member.events} (group {@code billing-service}), in batches, each
 * applied by {@link Ledger} in one transaction and acknowledged when this method returns, after
 * that transaction committed: an event is never acknowledged before the ledger holds it. While
 * the database fails the batch is retried every second (the partitions wait; nothing is
 * skipped); a stop in between leaves it unacknowledged, consumed again after the restart, and the
 * recorded envelope ids make that harmless. A record that is not an envelope cannot become one
 * by waiting: it is logged (the parser's exception class, never the record) and skipped.
 * Batches of one channel are applied in order ({@code @Blocking}, ordered), so one member's
 * {@code member.events} reach the ledger in the order members-service wrote them.
 */
@ApplicationScoped
public class LedgerConsumer {

    private static final Logger LOG = Logger.getLogger(LedgerConsumer.class);
    private static final long RETRY_MS = 1000;

    private final Ledger ledger;
    private final ObjectMapper json;
    private volatile boolean stopping;

    public LedgerConsumer(Ledger ledger, ObjectMapper json) {
        this.ledger = ledger;
        this.json = json;
    }

    @Incoming("care-events")
    @Blocking
    public void careEvents(List<String> envelopes) {
        apply("care.events", envelopes);
    }

    @Incoming("member-events")
    @Blocking
    public void memberEvents(List<String> envelopes) {
        apply("member.events", envelopes);
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    private void apply(String topic, List<String> envelopes) {
        List<LedgerEvent> events = parse(topic, envelopes);
        boolean failing = false;
        while (true) {
            try {
                ledger.apply(events);
                if (failing) {
                    LOG.infof("%s: the ledger takes events again", topic);
                }
                return;
            } catch (RuntimeException e) {
                if (!failing) {
                    LOG.warnf("%s: applying a batch of %d events failed (%s), retrying every second", topic, events.size(),
                            e.getClass().getName());
                    failing = true;
                }
                if (stopping) {
                    throw new IllegalStateException("shutting down before the batch was applied");
                }
                try {
                    Thread.sleep(RETRY_MS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted before the batch was applied");
                }
            }
        }
    }

    private List<LedgerEvent> parse(String topic, List<String> envelopes) {
        List<LedgerEvent> events = new ArrayList<>(envelopes.size());
        for (String envelope : envelopes) {
            try {
                LedgerEvent event = envelope == null ? null : json.readValue(envelope, LedgerEvent.class);
                if (event == null) {
                    LOG.warnf("%s: skipped a record that is not an event envelope (empty)", topic);
                    continue;
                }
                events.add(event);
            } catch (JsonProcessingException | IllegalArgumentException notAnEnvelope) {
                LOG.warnf("%s: skipped a record that is not an event envelope (%s)", topic, notAnEnvelope.getClass().getName());
            }
        }
        return events;
    }
}

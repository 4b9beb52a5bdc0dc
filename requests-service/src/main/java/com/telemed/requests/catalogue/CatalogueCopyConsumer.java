package com.telemed.requests.catalogue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.outbox.Outbox;
import com.telemed.common.trace.RecordTraces;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code catalogue.events} (group {@code requests-service}) into the catalogue copy, one record at a time
 * in partition order. A record is acknowledged when this method returns, after its transaction committed.
 * While the database fails the record is retried, every second, for as long as it takes (nothing is
 * skipped). A record that is not an envelope, or an event type this service does not read, is logged
 * (its type or the parser's exception class, never the record) and skipped. Each record is handled in
 * the trace of the operator's call that changed the catalogue (its {@code traceparent} header), and one
 * line names the event's type.
 */
@ApplicationScoped
public class CatalogueCopyConsumer {

    private static final Logger LOG = Logger.getLogger(CatalogueCopyConsumer.class);

    private final CatalogueCopy copy;
    private final ObjectMapper json;
    private final Tracer tracer;

    public CatalogueCopyConsumer(CatalogueCopy copy, ObjectMapper json, Tracer tracer) {
        this.copy = copy;
        this.json = json;
        this.tracer = tracer;
    }

    @Incoming("catalogue-events")
    @Blocking
    @Retry(maxRetries = -1, delay = 1, delayUnit = ChronoUnit.SECONDS, maxDuration = 0, jitter = 0)
    public void consume(String envelope, IncomingKafkaRecordMetadata<String, String> record) {
        Header traceparent = record.getHeaders().lastHeader(Outbox.TRACEPARENT);
        RecordTraces.continued(tracer, "catalogue.events process",
                traceparent == null ? null : new String(traceparent.value(), StandardCharsets.US_ASCII), () -> handle(envelope));
    }

    private void handle(String envelope) {
        CatalogueChanges.Event event;
        try {
            event = json.readValue(envelope, CatalogueChanges.Event.class);
            switch (event.type() == null ? "" : event.type()) {
                case CatalogueChanges.DRUG_CHANGED -> copy.apply(complete(json.treeToValue(event.data(), CatalogueChanges.Drug.class)));
                case CatalogueChanges.ACCESS_CHANGED -> copy.apply(complete(json.treeToValue(event.data(), CatalogueChanges.Access.class)));
                default -> {
                    LOG.warnf("skipped a catalogue.events record of type %s, which the copy does not read", event.type());
                    return;
                }
            }
            LOG.infof("catalogue.events: %s applied", event.type());
        } catch (JsonProcessingException | IllegalArgumentException notAnEvent) {
            LOG.warnf("skipped a catalogue.events record that is not a catalogue event (%s)", notAnEvent.getClass().getName());
        }
    }

    /** A drug change with every field the copy stores, else refused (waiting cannot complete it). */
    static CatalogueChanges.Drug complete(CatalogueChanges.Drug drug) {
        if (drug == null || drug.drugId() == null || drug.version() <= 0 || drug.drug() == null || !drug.drug().isObject()
                || drug.pharmacy() == null || drug.pharmacy().id() == null || drug.pharmacy().method() == null) {
            throw new IllegalArgumentException("incomplete drug change");
        }
        return drug;
    }

    /** An access change with its partner and version (a null list is the full catalogue), else refused. */
    static CatalogueChanges.Access complete(CatalogueChanges.Access access) {
        if (access == null || access.partnerId() == null || access.version() <= 0
                || access.drugIds() != null && access.drugIds().contains(null)) {
            throw new IllegalArgumentException("incomplete access change");
        }
        return access;
    }
}

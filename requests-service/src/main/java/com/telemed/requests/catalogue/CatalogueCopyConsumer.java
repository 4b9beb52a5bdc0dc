package com.telemed.requests.catalogue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.kafka.ConsumedEvents;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code catalogue.events} (group {@code requests-service}) into the catalogue copy, one record at a time in
 * partition order, as platform-commons {@link ConsumedEvents} consumes (retried every second while the database
 * fails, a record that is not a catalogue event skipped, each handled in the trace of the operator's call that
 * changed the catalogue). An event type this service does not read is logged (its type, never the record) and
 * skipped; one line names the type of each event applied.
 */
@ApplicationScoped
public class CatalogueCopyConsumer {

    private static final Logger LOG = Logger.getLogger(CatalogueCopyConsumer.class);

    private final CatalogueCopy copy;
    private final ObjectMapper json;
    private final ConsumedEvents<CatalogueChanges.Event> events;

    public CatalogueCopyConsumer(CatalogueCopy copy, ObjectMapper json, Tracer tracer) {
        this.copy = copy;
        this.json = json;
        this.events = new ConsumedEvents<>("catalogue.events", CatalogueChanges.Event.class, "a catalogue event", json, tracer,
                LOG);
    }

    @Incoming("catalogue-events")
    @Blocking
    public void consume(String envelope, IncomingKafkaRecordMetadata<String, String> record) {
        events.consume(envelope, record.getHeaders(), this::handle);
    }

    private void handle(CatalogueChanges.Event event) throws JsonProcessingException {
        switch (event.type() == null ? "" : event.type()) {
            case CatalogueChanges.DRUG_CHANGED -> copy.apply(complete(json.treeToValue(event.data(), CatalogueChanges.Drug.class)));
            case CatalogueChanges.ACCESS_CHANGED -> copy.apply(complete(json.treeToValue(event.data(), CatalogueChanges.Access.class)));
            default -> {
                LOG.warnf("skipped a catalogue.events record of type %s, which the copy does not read", event.type());
                return;
            }
        }
        LOG.infof("catalogue.events: %s applied", event.type());
    }

    /** A drug change with every field the copy stores, else refused (waiting cannot complete it). */
    static CatalogueChanges.Drug complete(CatalogueChanges.Drug drug) {
        if (drug == null || drug.drugId() == null || drug.version() <= 0 || drug.drug() == null || !drug.drug().isObject()
                || drug.pharmacy() == null || drug.pharmacy().id() == null || drug.pharmacy().method() == null) {
            throw new ConsumedEvents.NotAnEvent("incomplete drug change");
        }
        return drug;
    }

    /** An access change with its partner and version (a null list is the full catalogue), else refused. */
    static CatalogueChanges.Access complete(CatalogueChanges.Access access) {
        if (access == null || access.partnerId() == null || access.version() <= 0
                || access.drugIds() != null && access.drugIds().contains(null)) {
            throw new ConsumedEvents.NotAnEvent("incomplete access change");
        }
        return access;
    }
}

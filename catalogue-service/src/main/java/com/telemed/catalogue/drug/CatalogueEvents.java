package com.telemed.catalogue.drug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * The {@code catalogue.events} of a drug's changes (a partner's drug access publishes its own, {@code access.AccessEvents}), written to the outbox in the transaction of the
 * change (issue 23: requests-service keeps a copy of the catalogue instead of calling this service on
 * every create). Internal only: {@code webhook} is null.
 *
 * <ul>
 *   <li>{@code catalogue.drug_changed} (every {@code PUT /ops/v1/drugs/:id}): key and subject the drug id,
 *       {@code data} a {@link DrugCopy}; no partner.</li>
 * </ul>
 * Every event carries the catalogue version of the state it describes ({@code V3__catalogue_events.sql}):
 * a copy applies it only over an older version, so redelivery, reordering across keys and a snapshot
 * read in between change nothing twice. {@code occurredAt} is the change's {@code updatedAt}.
 */
@ApplicationScoped
public class CatalogueEvents {

    public static final String TOPIC = "catalogue.events";

    public static final String DRUG_CHANGED = "catalogue.drug_changed";
    private final Outbox outbox;
    private final ObjectMapper json;

    public CatalogueEvents(Outbox outbox, ObjectMapper json) {
        this.outbox = outbox;
        this.json = json;
    }

    public void drugChanged(CatalogueDrug drug, Instant at) {
        String drugId = drug.drug().id;
        outbox.publish(TOPIC, drugId, new EventEnvelope(UUID.randomUUID().toString(), DRUG_CHANGED, null, at,
                EventSubject.drug(drugId), json.valueToTree(DrugCopy.of(drug)), null));
    }
}

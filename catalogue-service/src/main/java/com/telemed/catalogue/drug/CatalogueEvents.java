package com.telemed.catalogue.drug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The {@code catalogue.events} of catalogue changes, written to the outbox in the transaction of the
 * change (issue 23: requests-service keeps a copy of the catalogue instead of calling this service on
 * every create). Internal only: {@code webhook} is null.
 *
 * <ul>
 *   <li>{@code catalogue.drug_changed} (every {@code PUT /ops/v1/drugs/:id}): key and subject the drug id,
 *       {@code data} a {@link DrugCopy}; no partner.</li>
 *   <li>{@code catalogue.access_changed} (every {@code PUT /ops/v1/partners/:id/drug-access}): key and
 *       {@code partnerId} the partner, an empty subject, {@code data} an {@link AccessCopy}.</li>
 * </ul>
 * Every event carries the catalogue version of the state it describes ({@code V3__catalogue_events.sql}):
 * a copy applies it only over an older version, so redelivery, reordering across keys and a snapshot
 * read in between change nothing twice. {@code occurredAt} is the change's {@code updatedAt}.
 */
@ApplicationScoped
public class CatalogueEvents {

    public static final String TOPIC = "catalogue.events";

    public static final String DRUG_CHANGED = "catalogue.drug_changed";
    public static final String ACCESS_CHANGED = "catalogue.access_changed";

    private static final EventSubject NO_SUBJECT = new EventSubject(null, null, null, null, null);

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

    /** {@code drugIds} null: the partner sees the full catalogue. */
    public void accessChanged(String partnerId, long version, List<String> drugIds, Instant at) {
        outbox.publish(TOPIC, partnerId, new EventEnvelope(UUID.randomUUID().toString(), ACCESS_CHANGED, partnerId, at,
                NO_SUBJECT, json.valueToTree(new AccessCopy(partnerId, version, drugIds)), null));
    }
}

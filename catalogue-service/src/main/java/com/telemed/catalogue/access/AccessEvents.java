package com.telemed.catalogue.access;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What drug access publishes on {@code catalogue.events} (the drug's own changes are {@code drug.CatalogueEvents}'),
 * written to the outbox in the transaction of the change. Internal only: {@code webhook} is null.
 *
 * <ul>
 *   <li>{@code catalogue.access_changed} (every {@code PUT /ops/v1/partners/:id/drug-access}): key and
 *       {@code partnerId} the partner, an empty subject, {@code data} an {@link AccessCopy}.</li>
 * </ul>
 * The event carries the partner's catalogue version of the state it describes, as every catalogue event does.
 */
@ApplicationScoped
public class AccessEvents {

    /** The catalogue's one topic, shared with {@code drug.CatalogueEvents}. */
    public static final String TOPIC = "catalogue.events";

    public static final String ACCESS_CHANGED = "catalogue.access_changed";

    private static final EventSubject NO_SUBJECT = new EventSubject(null, null, null, null, null);

    private final Outbox outbox;
    private final ObjectMapper json;

    public AccessEvents(Outbox outbox, ObjectMapper json) {
        this.outbox = outbox;
        this.json = json;
    }

    /** {@code drugIds} null: the partner sees the full catalogue. */
    public void accessChanged(String partnerId, long version, List<String> drugIds, Instant at) {
        outbox.publish(TOPIC, partnerId, new EventEnvelope(UUID.randomUUID().toString(), ACCESS_CHANGED, partnerId, at,
                NO_SUBJECT, json.valueToTree(new AccessCopy(partnerId, version, drugIds)), null));
    }
}

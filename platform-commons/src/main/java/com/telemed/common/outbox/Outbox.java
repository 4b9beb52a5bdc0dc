package com.telemed.common.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.event.EventEnvelope;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Records an event in the caller's database transaction; {@link OutboxRelay} later puts it on
 * Kafka. The event therefore exists exactly when the state change it describes was committed.
 * The table is {@code outbox_events}, created by each service's own migration (DDL in
 * {@code docs/architecture.md}, "Events"), with the {@code traceparent} column of each service's
 * later migration; commons has no entity for it, so services without an
 * outbox never see the table in Hibernate's validation.
 */
@ApplicationScoped
@IfBuildProperty(name = "platform.outbox.enabled", stringValue = "true")
public class Outbox {

    /** The W3C header (and outbox column) that carries the trace context of an event. */
    public static final String TRACEPARENT = "traceparent";

    // json, not jsonb: the stored text is published byte for byte (jsonb would reorder keys).
    private static final String INSERT = "insert into outbox_events (event_id, topic, message_key, payload, traceparent)"
            + " values (cast(?1 as uuid), ?2, ?3, cast(?4 as json), ?5)";

    private final EntityManager entityManager;
    private final ObjectMapper objectMapper;
    private final TransactionSynchronizationRegistry transactions;
    private final OutboxRelay relay;

    public Outbox(EntityManager entityManager, ObjectMapper objectMapper, TransactionSynchronizationRegistry transactions,
                  OutboxRelay relay) {
        this.entityManager = entityManager;
        this.objectMapper = objectMapper;
        this.transactions = transactions;
        this.relay = relay;
    }

    /**
     * Adds the event to the current transaction. MANDATORY: an event written outside one would
     * be committed on its own and could describe a change that is then rolled back.
     *
     * @param key the aggregate id; every event of one aggregate shares it, so they stay in order
     * @throws jakarta.transaction.TransactionalException when no transaction is active
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(String topic, String key, EventEnvelope envelope) {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(key, "key");
        entityManager.createNativeQuery(INSERT)
                .setParameter(1, envelope.id())
                .setParameter(2, topic)
                .setParameter(3, key)
                .setParameter(4, serialise(envelope))
                .setParameter(5, traceparent())
                .executeUpdate();
        // The relay is woken once the transaction commits, when the rows are visible to it.
        relay.wakeAfterCommit(transactions);
    }

    /**
     * The W3C {@code traceparent} of the call that records the event (null outside a trace): the relay
     * publishes it as the record's header, so the consumers continue the caller's trace.
     */
    static String traceparent() {
        if (!Span.current().getSpanContext().isValid()) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>(2);
        W3CTraceContextPropagator.getInstance().inject(Context.current(), carrier, Map::put);
        return carrier.get(TRACEPARENT);
    }

    private String serialise(EventEnvelope envelope) {
        try {
            return objectMapper.writeValueAsString(envelope);
        } catch (JsonProcessingException e) {
            // The message could quote patient data; the type is enough to find the bug.
            throw new IllegalArgumentException("event " + envelope.type() + " cannot be serialised as JSON");
        }
    }
}

package com.telemed.webhook.events;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Records partner events ({@code events}, Flyway V7) inside the caller's transaction, with their
 * per-partner sequence numbers.
 *
 * <p>The sequence is commit-ordered: the batch's partners' counter rows ({@code partner_event_counters})
 * are advanced by one {@code INSERT ... ON CONFLICT DO UPDATE ... RETURNING} (an {@code UPDATE ... RETURNING}
 * that also creates a partner's row on its first event), in partner order (two batches never wait on
 * each other's rows crosswise). Each row stays locked until the caller's transaction ends, so a
 * partner's next writer, on any replica, reads its counter only after this transaction has committed
 * and become visible: sequence order is commit order, and a reader's snapshot that holds number
 * n + 1 holds n. An event seen before (same envelope id) inserts nothing and leaves its number
 * unused: gaps are harmless, the cursor only needs the order.
 */
public final class EventRecorder {

    /**
     * The recording as the leading common table expressions of one statement (issue 44: one round trip where
     * there were two, and the intake appends its deliveries to the same statement). Parameters 1 to 5: the batch's
     * ids, partner ids, envelope ids, types and bodies (arrays, in batch order); 6: {@code created_at}. Names it
     * leaves for the rest of the statement: {@code batch (id, partner_id, event_id, type, body, n)}, {@code n} the
     * 1-based position in the batch; {@code partners (partner_id, n)}, each partner's count; {@code recorded (id,
     * partner_id, event_id, type, body)}, the events that were new. The counter rows are advanced in partner order
     * (two batches never wait on each other's rows crosswise) and stay locked until the transaction ends; each
     * partner's events take the last {@code n} numbers of its counter, in batch order.
     */
    public static final String RECORD = "WITH batch AS (SELECT * FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[])"
            + "   WITH ORDINALITY AS b(id, partner_id, event_id, type, body, n)),"
            + " partners AS (SELECT partner_id, count(*) AS n FROM batch GROUP BY partner_id),"
            + " advanced AS (INSERT INTO partner_event_counters AS c (partner_id, last_seq)"
            + "   SELECT partner_id, n FROM partners ORDER BY partner_id"
            + "   ON CONFLICT (partner_id) DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq"
            + "   RETURNING partner_id, last_seq),"
            + " recorded AS (INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at)"
            + "   SELECT b.id, b.partner_id, a.last_seq - p.n + row_number() OVER (PARTITION BY b.partner_id ORDER BY b.n),"
            + "     b.event_id, b.type, b.body, ?"
            + "   FROM batch b JOIN advanced a ON a.partner_id = b.partner_id JOIN partners p ON p.partner_id = b.partner_id"
            + "   ORDER BY b.n"
            + "   ON CONFLICT (event_id) DO NOTHING RETURNING id, partner_id, event_id, type, body)";

    static final String RECORD_ALONE = RECORD + " SELECT event_id FROM recorded";

    /** One event to record: {@code id} is its {@code X-Webhook-Id}, {@code eventId} the envelope's id. */
    public record NewEvent(UUID id, String partnerId, String eventId, String type, String body) {

        @Override
        public String toString() {
            // Never the body: it can name a patient.
            return "NewEvent[" + id + "]";
        }
    }

    private EventRecorder() {
    }

    /** Sets {@link #RECORD}'s parameters 1 to 6. */
    public static void bind(PreparedStatement statement, Connection connection, List<NewEvent> events, Instant at)
            throws SQLException {
        int n = events.size();
        UUID[] ids = new UUID[n];
        String[] partners = new String[n];
        String[] eventIds = new String[n];
        String[] types = new String[n];
        String[] bodies = new String[n];
        for (int i = 0; i < n; i++) {
            NewEvent event = events.get(i);
            ids[i] = event.id();
            partners[i] = event.partnerId();
            eventIds[i] = event.eventId();
            types[i] = event.type();
            bodies[i] = event.body();
        }
        statement.setArray(1, connection.createArrayOf("uuid", ids));
        statement.setArray(2, connection.createArrayOf("text", partners));
        statement.setArray(3, connection.createArrayOf("text", eventIds));
        statement.setArray(4, connection.createArrayOf("text", types));
        statement.setArray(5, connection.createArrayOf("text", bodies));
        statement.setTimestamp(6, Timestamp.from(at));
    }

    /** Records the events (distinct envelope ids) and answers the envelope ids that were new. */
    public static Set<String> record(Connection connection, List<NewEvent> events, Instant at) throws SQLException {
        if (events.isEmpty()) {
            return Set.of();
        }
        Set<String> inserted = new LinkedHashSet<>();
        try (PreparedStatement record = connection.prepareStatement(RECORD_ALONE)) {
            bind(record, connection, events, at);
            try (ResultSet rows = record.executeQuery()) {
                while (rows.next()) {
                    inserted.add(rows.getString(1));
                }
            }
        }
        return inserted;
    }
}

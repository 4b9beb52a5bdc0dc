package com.telemed.webhook.events;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    static final String ADVANCE = "INSERT INTO partner_event_counters AS c (partner_id, last_seq)"
            + " SELECT u.partner_id, u.n FROM unnest(?::text[], ?::bigint[]) AS u(partner_id, n) ORDER BY u.partner_id"
            + " ON CONFLICT (partner_id) DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq"
            + " RETURNING partner_id, last_seq";

    static final String INSERT = "INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at)"
            + " SELECT u.id, u.partner_id, u.seq, u.event_id, u.type, u.body, ?"
            + " FROM unnest(?::uuid[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[])"
            + "   WITH ORDINALITY AS u(id, partner_id, seq, event_id, type, body, n)"
            + " ORDER BY u.n"
            + " ON CONFLICT (event_id) DO NOTHING RETURNING event_id";

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

    /** Records the events (distinct envelope ids) and answers the envelope ids that were new. */
    public static Set<String> record(Connection connection, List<NewEvent> events, Instant at) throws SQLException {
        if (events.isEmpty()) {
            return Set.of();
        }
        Map<String, Integer> counts = new TreeMap<>();
        events.forEach(event -> counts.merge(event.partnerId(), 1, Integer::sum));
        Map<String, Long> next = new HashMap<>();
        try (PreparedStatement advance = connection.prepareStatement(ADVANCE)) {
            advance.setArray(1, connection.createArrayOf("text", counts.keySet().toArray(String[]::new)));
            advance.setArray(2, connection.createArrayOf("bigint", counts.values().stream().map(Long::valueOf).toArray(Long[]::new)));
            try (ResultSet rows = advance.executeQuery()) {
                while (rows.next()) {
                    String partnerId = rows.getString(1);
                    // The batch's numbers are the last count ones: first = last - count + 1.
                    next.put(partnerId, rows.getLong(2) - counts.get(partnerId) + 1);
                }
            }
        }
        int n = events.size();
        UUID[] ids = new UUID[n];
        String[] partners = new String[n];
        Long[] seqs = new Long[n];
        String[] eventIds = new String[n];
        String[] types = new String[n];
        String[] bodies = new String[n];
        for (int i = 0; i < n; i++) {
            NewEvent event = events.get(i);
            ids[i] = event.id();
            partners[i] = event.partnerId();
            seqs[i] = next.merge(event.partnerId(), 1L, Long::sum) - 1;
            eventIds[i] = event.eventId();
            types[i] = event.type();
            bodies[i] = event.body();
        }
        Set<String> inserted = new LinkedHashSet<>();
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setTimestamp(1, Timestamp.from(at));
            insert.setArray(2, connection.createArrayOf("uuid", ids));
            insert.setArray(3, connection.createArrayOf("text", partners));
            insert.setArray(4, connection.createArrayOf("bigint", seqs));
            insert.setArray(5, connection.createArrayOf("text", eventIds));
            insert.setArray(6, connection.createArrayOf("text", types));
            insert.setArray(7, connection.createArrayOf("text", bodies));
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    inserted.add(rows.getString(1));
                }
            }
        }
        return inserted;
    }
}

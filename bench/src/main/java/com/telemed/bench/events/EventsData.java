package com.telemed.bench.events;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * The events of the partner under test, loaded straight into webhook-service's database as intake
 * leaves them: one {@code events} row per event (sequence 1 to n, ids derived from the partner and the
 * sequence so that pgbench can name a cursor: {@code md5(partner || ':' || seq)::uuid}), spread over the
 * last 29 days (inside retention), three event names in turn, a body of an item event; nine in ten
 * with a delivery (one in fifty of those failed after 3 attempts, the rest delivered at the first)
 * and its attempts, the newest attempt on the delivery row ({@code last_attempt_id}, {@code last_attempt_at}, as the
 * recorder keeps them: written here by webhook-service's V8 trigger on the attempts' insert), laid out in the order they
 * were made (CLUSTER, below); the partner's counter at n.
 */
final class EventsData {

    private static final int CHUNK = 100_000;

    private EventsData() {
    }

    static void load(Connection db, String partnerId, int events) throws Exception {
        long began = System.nanoTime();
        db.setAutoCommit(true);
        for (int from = 1; from <= events; from += CHUNK) {
            int to = Math.min(events, from + CHUNK - 1);
            try (PreparedStatement insert = db.prepareStatement("""
                    INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at)
                    SELECT md5(? || ':' || g)::uuid, ?, g, 'bench:' || g, t.type,
                      '{"event":"' || t.type || '","requestId":"' || md5('r' || g)::uuid || '","itemId":"' || md5('i' || g)::uuid
                        || '","status":"approved","patientName":"Bench Patient","prescriptionName":"Drug 1.50","timestamp":"'
                        || to_char((now() - interval '29 days' + g * (interval '29 days' / ?)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                        || '"}',
                      now() - interval '29 days' + g * (interval '29 days' / ?)
                    FROM generate_series(?::bigint, ?::bigint) AS g,
                      LATERAL (SELECT (ARRAY['item.approved', 'message.new', 'appointment.booked'])[1 + g % 3] AS type) AS t""")) {
                insert.setString(1, partnerId);
                insert.setString(2, partnerId);
                insert.setInt(3, events);
                insert.setInt(4, events);
                insert.setLong(5, from);
                insert.setLong(6, to);
                insert.executeUpdate();
            }
            try (PreparedStatement deliveries = db.prepareStatement("""
                    INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status, attempt_count,
                      round_attempts, next_attempt_at, lease_until, created_at, updated_at)
                    SELECT id, partner_id, event_id, type, body, extract(epoch FROM created_at)::bigint::text, 'sha256=00',
                      CASE WHEN seq % 50 = 1 THEN 'failed' ELSE 'delivered' END, CASE WHEN seq % 50 = 1 THEN 3 ELSE 1 END,
                      CASE WHEN seq % 50 = 1 THEN 3 ELSE 1 END, NULL, NULL, created_at, created_at
                    FROM events WHERE partner_id = ? AND seq BETWEEN ? AND ? AND seq % 10 <> 0""")) {
                deliveries.setString(1, partnerId);
                deliveries.setLong(2, from);
                deliveries.setLong(3, to);
                deliveries.executeUpdate();
            }
            try (PreparedStatement attempts = db.prepareStatement("""
                    INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms)
                    SELECT d.id, d.created_at + n * interval '2 seconds', CASE WHEN d.status = 'failed' THEN 500 ELSE 200 END, NULL, 40
                    FROM deliveries d JOIN events e ON e.id = d.id, generate_series(0, d.attempt_count - 1) AS n
                    WHERE e.partner_id = ? AND e.seq BETWEEN ? AND ?""")) {
                attempts.setString(1, partnerId);
                attempts.setLong(2, from);
                attempts.setLong(3, to);
                attempts.executeUpdate();
            }
            System.out.printf("  %,d events loaded (%.0f s)%n", to, (System.nanoTime() - began) / 1e9);
        }
        try (PreparedStatement counter = db.prepareStatement("INSERT INTO partner_event_counters (partner_id, last_seq) VALUES (?, ?)")) {
            counter.setString(1, partnerId);
            counter.setLong(2, events);
            counter.executeUpdate();
        }
        try (Statement st = db.createStatement()) {
            // The deliveries' live rows in the order they were made, as webhook-service leaves them: intake appends a
            // batch's deliveries together and the recorder's UPDATE writes each new version where the table has room,
            // within moments of its insert. The trigger's UPDATE above wrote them in id order, a random one: each row of
            // a page on a heap page of its own (the page's SQL alone: 1.0 ms of PostgreSQL CPU where it takes 0.65 ms
            // laid out in order; README, Performance).
            st.execute("CLUSTER deliveries USING deliveries_partner_created_idx");
            st.execute("VACUUM ANALYZE events");
            st.execute("VACUUM ANALYZE deliveries");
            st.execute("VACUUM ANALYZE delivery_attempts");
        }
        System.out.printf("%,d events, their deliveries and attempts loaded and analysed in %.0f s%n", events,
                (System.nanoTime() - began) / 1e9);
    }
}

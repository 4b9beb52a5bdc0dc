package com.telemed.bench.requests;

import com.telemed.bench.support.BulkLoad;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/**
 * The requests the list benchmark reads: 1,000,000 in all with one line item each, 100,000 of them
 * the partner under test's, written straight into requests-service's database with set-based SQL,
 * then vacuumed.
 */
final class RequestsData {

    private static final int TOTAL = 1_000_000;
    private static final int OTHER_PARTNERS = 99;

    private RequestsData() {
    }

    /**
     * 1,000,000 requests and their line item in one statement (INSERT ... RETURNING feeding the line
     * items): a multiplicative hash of the series number picks the partner (1 in 10 the partner under
     * test, else one of 99 others), others the status (60 % pending, 25 % approved, 10 % denied, 5 %
     * cancelled; the item's status the same) and the creation time (over the last two years), so every
     * attribute is independent of the partner. Indexes are dropped and recreated around it
     * ({@link BulkLoad}); the line items' foreign key trigger and the list counters' triggers are skipped for
     * the load (session_replication_role), the keys being right by construction and the counters recounted after.
     */
    static void load(Connection db, String partnerId) throws Exception {
        long t0 = System.nanoTime();
        try (Statement st = db.createStatement()) {
            st.execute("SET maintenance_work_mem = '256MB'");
            List<String> indexes = BulkLoad.dropIndexes(st, "requests", "line_items");
            st.execute("SET session_replication_role = replica");
            String sql = """
                    WITH s AS (
                      SELECT i,
                             (i::bigint * 2654435761) %% 4294967296 AS h,
                             (i::bigint * 40503 + 12345) %% 1000003 AS g,
                             (i::bigint * 69069 + 1) %% 63072001 AS t
                      FROM generate_series(1, %d) AS i
                    ), n AS (
                      SELECT i, g,
                             CASE WHEN h %% 10 = 0 THEN ? ELSE 'bench-other-' || lpad((h %% %d)::text, 2, '0') END AS partner,
                             CASE WHEN g %% 100 < 60 THEN 'pending' WHEN g %% 100 < 85 THEN 'approved'
                                  WHEN g %% 100 < 95 THEN 'denied' ELSE 'cancelled' END AS status,
                             now() - t * interval '1 second' AS at
                      FROM s
                    ), r AS (
                      INSERT INTO requests (id, partner_id, member_id, member_name, member_email, member_dob, member_state,
                                            status, consultation_open, case_notes, provider_id, item_count, created_at, updated_at)
                      SELECT md5('bench-request-' || i)::uuid, partner, gen_random_uuid(),
                             'Member ' || i, 'member.' || i || '@example.com',
                             to_char(date '1945-01-01' + (g %% 25000)::int, 'YYYY-MM-DD'),
                             (ARRAY['CA','NY','TX','FL','WA','IL','PA','OH','GA','NC'])[1 + (g %% 10)],
                             status, false, 'bench', 'provider-local', 1, at, at
                      FROM n
                      RETURNING id, partner_id, status, created_at
                    )
                    INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, drug_id, drug_name,
                                            status, pharmacy_id, pharmacy_method, pharmacy_sent, pharmacy_sent_at,
                                            created_at, updated_at)
                    SELECT md5('bench-item-' || id)::uuid, id, partner_id, 0, created_at,
                           (ARRAY['semaglutide','tirzepatide','finasteride','sildenafil'])[1 + abs(hashtext(id::text) %% 4)],
                           (ARRAY['Semaglutide','Tirzepatide','Finasteride','Sildenafil'])[1 + abs(hashtext(id::text) %% 4)],
                           status, 'sandbox-pharmacy', 'integration_a', status = 'approved',
                           CASE WHEN status = 'approved' THEN created_at + interval '1 day' END,
                           created_at, created_at
                    FROM r
                    """.formatted(TOTAL, OTHER_PARTNERS);
            try (PreparedStatement insert = db.prepareStatement(sql)) {
                insert.setString(1, partnerId);
                insert.executeUpdate();
            }
            st.execute("RESET session_replication_role");
            long inserted = System.nanoTime();
            BulkLoad.createIndexes(st, indexes);
            // The list counters (V22, V23): their triggers were off with session_replication_role; the migration's own recount.
            st.execute("SELECT request_list_counts_rebuild()");
            long indexed = System.nanoTime();
            // VACUUM too: the visibility map of a long-lived table, and no autovacuum run mid-benchmark.
            st.execute("VACUUM (ANALYZE) requests");
            st.execute("VACUUM (ANALYZE) line_items");
            st.execute("VACUUM (ANALYZE) request_list_counts");
            st.execute("VACUUM (ANALYZE) request_list_month_counts");
            st.execute("VACUUM (ANALYZE) request_list_totals");
            System.out.printf("loaded %,d requests + %,d line items in %.0f s (insert %.0f s, %d indexes rebuilt and counters recounted %.0f s, vacuum analyze %.0f s)%n",
                    TOTAL, TOTAL, (System.nanoTime() - t0) / 1e9, (inserted - t0) / 1e9, indexes.size(), (indexed - inserted) / 1e9,
                    (System.nanoTime() - indexed) / 1e9);
            String quoted = "'" + partnerId.replace("'", "''") + "'";
            try (ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE partner_id = " + quoted + "), count(*),"
                    + " count(DISTINCT partner_id), pg_size_pretty(pg_total_relation_size('requests')),"
                    + " pg_size_pretty(pg_total_relation_size('line_items')) FROM requests")) {
                rs.next();
                System.out.printf("requests: %,d for the partner under test, %,d in all, %d partners; requests %s, line_items %s (tables + indexes)%n",
                        rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5));
            }
            try (ResultSet rs = st.executeQuery("SELECT status, count(*) FROM line_items WHERE partner_id = " + quoted
                    + " GROUP BY status ORDER BY count(*) DESC")) {
                StringBuilder mix = new StringBuilder("items of the partner under test by status:");
                while (rs.next()) {
                    mix.append(String.format(" %s %,d;", rs.getString(1), rs.getLong(2)));
                }
                System.out.println(mix);
            }
        }
    }
}

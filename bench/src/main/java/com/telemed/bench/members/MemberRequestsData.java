package com.telemed.bench.members;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The requests of the members the list benchmark reads (issue 44, round 4), written straight into requests-service's
 * database as {@code bench/requests}' {@code RequestsData} writes its own: a third of the partner under test's members
 * have 1 to 3 requests each, with a line item each, so that a page's summaries call reads and answers what it would in
 * use (an empty answer cost requests-service 0.50 ms a page, and hid what rows cost). A member is picked by the series
 * number of {@link MembersData} (the same hash picks the partner; its id is the same md5), so the members with
 * requests are spread over every filter, the newest among them.
 */
final class MemberRequestsData {

    private MemberRequestsData() {
    }

    static void load(Connection db, String partnerId) throws Exception {
        long t0 = System.nanoTime();
        try (Statement st = db.createStatement()) {
            // The line items' foreign key trigger and the list counters' triggers off for the load; the counters recounted after.
            st.execute("SET session_replication_role = replica");
            String sql = """
                    WITH members AS (
                      SELECT i, md5('bench-member-' || i)::uuid AS member_id,
                             now() - (((i::bigint * 2654435761) %% 4294967296) / 1000 %% 31536000) * interval '1 second' AS joined
                      FROM generate_series(1, %d) AS i
                      WHERE ((i::bigint * 2654435761) %% 4294967296) %% 10 = 0 AND i %% 3 = 0
                    ), n AS (
                      SELECT m.i, m.member_id, r AS nth, (m.i * 7 + r * 40503) %% 1000003 AS g,
                             m.joined + r * interval '1 hour' AS at
                      FROM members m CROSS JOIN LATERAL generate_series(1, 1 + (m.i / 3) %% 3) AS r
                    ), r AS (
                      INSERT INTO requests (id, partner_id, member_id, member_name, member_email, member_dob, member_state,
                                            status, consultation_open, case_notes, provider_id, item_count, created_at, updated_at)
                      SELECT md5('bench-member-request-' || i || '-' || nth)::uuid, ?, member_id,
                             'Member ' || i, 'member.' || i || '@example.com',
                             to_char(date '1945-01-01' + (g %% 25000)::int, 'YYYY-MM-DD'),
                             (ARRAY['CA','NY','TX','FL','WA','IL','PA','OH','GA','NC'])[1 + (g %% 10)],
                             CASE WHEN g %% 100 < 60 THEN 'pending' WHEN g %% 100 < 85 THEN 'approved'
                                  WHEN g %% 100 < 95 THEN 'denied' ELSE 'cancelled' END,
                             false, 'Intake notes for request ' || nth || ': ' || repeat('history and answers ', 1 + g %% 10),
                             'provider-local', 1, at, at
                      FROM n
                      RETURNING id, partner_id, status, created_at
                    )
                    INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, drug_id, drug_name, dosage,
                                            status, pharmacy_id, pharmacy_method, pharmacy_sent, pharmacy_sent_at,
                                            created_at, updated_at)
                    SELECT md5('bench-member-item-' || id)::uuid, id, partner_id, 0, created_at,
                           (ARRAY['semaglutide','tirzepatide','finasteride','sildenafil'])[1 + abs(hashtext(id::text) %% 4)],
                           (ARRAY['Semaglutide','Tirzepatide','Finasteride','Sildenafil'])[1 + abs(hashtext(id::text) %% 4)],
                           '0.5mg', status, 'sandbox-pharmacy', 'integration_a', status = 'approved',
                           CASE WHEN status = 'approved' THEN created_at + interval '1 day' END,
                           created_at, created_at
                    FROM r
                    """.formatted(MembersData.TOTAL);
            try (PreparedStatement insert = db.prepareStatement(sql)) {
                insert.setString(1, partnerId);
                insert.executeUpdate();
            }
            st.execute("RESET session_replication_role");
            st.execute("SELECT request_list_counts_rebuild()");
            st.execute("VACUUM (ANALYZE) requests");
            st.execute("VACUUM (ANALYZE) line_items");
            String quoted = "'" + partnerId.replace("'", "''") + "'";
            try (ResultSet rs = st.executeQuery("SELECT count(DISTINCT member_id), count(*) FROM requests WHERE partner_id = " + quoted)) {
                rs.next();
                System.out.printf("member requests: %,d requests (a line item each) of %,d members of the partner under test in %.0f s%n",
                        rs.getLong(2), rs.getLong(1), (System.nanoTime() - t0) / 1e9);
            }
        }
    }
}

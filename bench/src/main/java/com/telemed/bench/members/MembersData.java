package com.telemed.bench.members;

import com.telemed.bench.support.BulkLoad;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/**
 * The members the list benchmark reads: 1,000,000 in all, 100,000 of them the partner under test's,
 * written straight into members-service's database with set-based SQL, then vacuumed.
 */
final class MembersData {

    static final int TOTAL = 1_000_000;
    private static final int OTHER_PARTNERS = 99;

    private MembersData() {
    }

    /**
     * 1,000,000 members in one INSERT ... SELECT: a multiplicative hash of the series number picks
     * the partner (1 in 10 the partner under test, else one of 99 others), so every attribute is
     * independent of the partner. Indexes are dropped and recreated around it ({@link BulkLoad}); the list
     * counters' triggers are off for it (session_replication_role) and the counters recounted after.
     */
    static void load(Connection db, String partnerId) throws Exception {
        long t0 = System.nanoTime();
        try (Statement st = db.createStatement()) {
            st.execute("SET maintenance_work_mem = '256MB'");
            List<String> indexes = BulkLoad.dropIndexes(st, "members");
            String sql = """
                    WITH s AS (
                      SELECT i,
                             (i::bigint * 2654435761) %% 4294967296 AS h,
                             (i::bigint * 40503 + 12345) %% 1000003 AS g,
                             (i::bigint * 97 + 13) %% 10007 AS k
                      FROM generate_series(1, %d) AS i
                    ), n AS (
                      SELECT s.*,
                             CASE WHEN h %% 10 = 0 THEN ? ELSE 'bench-other-' || lpad((h %% %d)::text, 2, '0') END AS partner,
                             (ARRAY['James','Mary','John','Patricia','Robert','Jennifer','Michael','Linda','William','Elizabeth',
                                    'David','Barbara','Richard','Susan','Joseph','Jessica','Thomas','Sarah','Charles','Karen',
                                    'Christopher','Nancy','Daniel','Lisa','Matthew','Betty','Anthony','Margaret','Mark','Sandra',
                                    'Donald','Ashley','Steven','Kimberly','Paul','Emily','Andrew','Donna','Joshua','Michelle',
                                    'Kenneth','Carol','Kevin','Amanda','Brian','Melissa','George','Deborah','Timothy','Stephanie',
                                    'Ronald','Rebecca','Edward','Sharon','Jason','Laura','Jeffrey','Cynthia','Ryan','Kathleen',
                                    'Wei','Priya','Ahmed','Sofia','Mateo','Yuki','Olga','Kwame','Fatima','Lars'])[1 + (g %% 70)] AS first,
                             CASE WHEN i %% 9973 = 0 THEN 'Quackenbush' ELSE
                             (ARRAY['Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis','Rodriguez','Martinez',
                                    'Hernandez','Lopez','Gonzalez','Wilson','Anderson','Thomas','Taylor','Moore','Jackson','Martin',
                                    'Lee','Perez','Thompson','White','Harris','Sanchez','Clark','Ramirez','Lewis','Robinson',
                                    'Walker','Young','Allen','King','Wright','Scott','Torres','Nguyen','Hill','Flores',
                                    'Green','Adams','Nelson','Baker','Hall','Rivera','Campbell','Mitchell','Carter','Roberts',
                                    'Gomez','Phillips','Evans','Turner','Diaz','Parker','Cruz','Edwards','Collins','Reyes',
                                    'Stewart','Morris','Morales','Murphy','Cook','Rogers','Gutierrez','Ortiz','Morgan','Cooper',
                                    'Peterson','Bailey','Reed','Kelly','Howard','Ramos','Kim','Cox','Ward','Richardson',
                                    'Watson','Brooks','Chavez','Wood','James','Bennett','Gray','Mendoza','Ruiz','Hughes',
                                    'Price','Alvarez','Castillo','Sanders','Patel','Myers','Long','Ross','Foster','Okafor'])
                                    [1 + floor(100 * power(k / 10007.0, 2))::int] END AS last
                      FROM s
                    )
                    INSERT INTO members (id, partner_id, first_name, last_name, email, phone, date_of_birth, state, status, gender,
                                         street1, street2, city, address_state, zip_code,
                                         shipping_street1, shipping_street2, shipping_city, shipping_state, shipping_zip_code,
                                         created_at, updated_at)
                    SELECT md5('bench-member-' || i)::uuid, partner, first, last,
                           lower(first) || '.' || lower(last) || '.' || i || '@'
                             || (ARRAY['example.com','mail.test','inbox.example','post.example','example.org'])[1 + (g %% 5)],
                           CASE WHEN i %% 3 = 0 THEN NULL ELSE '+1555' || lpad((h %% 10000000)::text, 7, '0') END,
                           to_char(date '1945-01-01' + (g %% 25000)::int, 'YYYY-MM-DD'),
                           (ARRAY['CA','NY','TX','FL','WA','IL','PA','OH','GA','NC'])[1 + (k %% 10)],
                           CASE WHEN (h / 10) %% 100 < 80 THEN 'active' WHEN (h / 10) %% 100 < 92 THEN 'paused' ELSE 'cancelled' END,
                           (ARRAY['m','f','a','u'])[1 + (i %% 4)],
                           (1 + i %% 9999) || ' ' || (ARRAY['Main St','Oak Ave','Pine Rd','Maple Dr','Cedar Ln'])[1 + (k %% 5)],
                           CASE WHEN i %% 7 = 0 THEN 'Apt ' || (i %% 300) ELSE NULL END,
                           (ARRAY['Springfield','Riverside','Franklin','Greenville','Bristol','Clinton','Fairview','Salem'])[1 + (g %% 8)],
                           (ARRAY['CA','NY','TX','FL','WA','IL','PA','OH','GA','NC'])[1 + (k %% 10)],
                           lpad((g %% 100000)::text, 5, '0'),
                           CASE WHEN i %% 5 = 0 THEN (1 + i %% 500) || ' Market St' END, NULL,
                           CASE WHEN i %% 5 = 0 THEN 'Portland' END, CASE WHEN i %% 5 = 0 THEN 'OR' END,
                           CASE WHEN i %% 5 = 0 THEN '97201' END,
                           now() - ((h / 1000) %% 31536000) * interval '1 second',
                           now() - ((h / 1000) %% 31536000) * interval '1 second'
                    FROM n
                    """.formatted(TOTAL, OTHER_PARTNERS);
            // The list counters' triggers (V11) off for the load, then the migration's own recount.
            st.execute("SET session_replication_role = replica");
            try (PreparedStatement insert = db.prepareStatement(sql)) {
                insert.setString(1, partnerId);
                insert.executeUpdate();
            }
            st.execute("RESET session_replication_role");
            long inserted = System.nanoTime();
            BulkLoad.createIndexes(st, indexes);
            st.execute("SELECT member_list_counts_rebuild()");
            st.execute("VACUUM (ANALYZE) member_list_counts");
            long indexed = System.nanoTime();
            // VACUUM too (not only ANALYZE): the visibility map a long-lived table has, so what is
            // measured is the steady state and not an autovacuum run starting mid-benchmark. The
            // CHECKPOINT first, and another VACUUM while needed: VACUUM leaves a page it cannot lock
            // for cleanup not all-visible (likely here: the checkpointer or bgwriter writing it out
            // after a load this size), and index-only scans then read those pages from the table
            // (one run had 4.6% of them so, and every count read 4,610 rows from the table).
            st.execute("CHECKPOINT");
            for (int vacuum = 0; vacuum < 3 && (vacuum == 0 || !allVisible(st)); vacuum++) {
                st.execute("VACUUM (ANALYZE) members");
            }
            System.out.printf("loaded %,d members in %.0f s (insert %.0f s, %d indexes rebuilt %.0f s, vacuum analyze %.0f s)%n",
                    TOTAL, (System.nanoTime() - t0) / 1e9, (inserted - t0) / 1e9, indexes.size(), (indexed - inserted) / 1e9,
                    (System.nanoTime() - indexed) / 1e9);
            try (ResultSet rs = st.executeQuery("SELECT relallvisible, relpages FROM pg_class WHERE oid = 'members'::regclass")) {
                rs.next();
                System.out.printf("visibility map: %,d of %,d pages all-visible%n", rs.getLong(1), rs.getLong(2));
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE partner_id = '" + partnerId.replace("'", "''")
                    + "'), count(*), count(DISTINCT partner_id), pg_size_pretty(pg_total_relation_size('members')) FROM members")) {
                rs.next();
                System.out.printf("members: %,d for the partner under test, %,d in all, %d partners; table + indexes %s%n",
                        rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4));
            }
        }
    }

    private static boolean allVisible(Statement st) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT relallvisible >= relpages FROM pg_class WHERE oid = 'members'::regclass")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}

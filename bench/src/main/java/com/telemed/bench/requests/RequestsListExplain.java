package com.telemed.bench.requests;

import com.telemed.bench.support.Explain;
import com.telemed.bench.support.NamedSql;
import com.telemed.requests.request.RequestQueries;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The measurement: EXPLAIN (ANALYZE, BUFFERS) of what {@code RequestQueries.list} runs for page 1,
 * bitmap scans off as there. By status: the count and the page of ids from requests-service's own
 * {@code RequestQueries.statusCountSql} and {@code statusPageSql}, not a copy. Without a status the
 * service asks Panache (HQL: partnerId = :partner, order by createdAt desc, id desc), so what is
 * EXPLAINed is the SQL Hibernate makes of it, written out here.
 */
final class RequestsListExplain {

    static final int LIMIT = 20;
    static final long FIRST = 0;

    /** Hibernate's SQL for the unfiltered list's Panache count and page (HQL in the service: no SQL text to share). */
    static final String UNFILTERED_COUNT = "SELECT count(*) FROM requests r WHERE r.partner_id = :partner";
    static final String UNFILTERED_PAGE = "SELECT r.* FROM requests r WHERE r.partner_id = :partner"
            + " ORDER BY r.created_at DESC, r.id DESC FETCH FIRST 20 ROWS ONLY";

    /** A statement of {@code RequestQueries.list}, with the values it is bound with. */
    record Explained(String title, NamedSql sql, Map<String, Object> values) {
    }

    private RequestsListExplain() {
    }

    static List<Explained> statements(String partnerId) {
        List<Explained> statements = new ArrayList<>();
        for (String status : new String[] {"pending", "approved", "cancelled"}) {
            // Page 1 without dates: each branch reads first + limit at most.
            Map<String, Object> values = Map.of("partner", partnerId, "status", status, "reach", FIRST + LIMIT,
                    "limit", LIMIT, "first", FIRST);
            statements.add(new Explained("-- status=" + status + ", count:", NamedSql.of(RequestQueries.statusCountSql(false, false)), values));
            statements.add(new Explained("-- status=" + status + ", page 1:", NamedSql.of(RequestQueries.statusPageSql(false, false)), values));
        }
        Map<String, Object> partner = Map.of("partner", partnerId);
        statements.add(new Explained("-- no filter, count:", NamedSql.of(UNFILTERED_COUNT), partner));
        statements.add(new Explained("-- no filter, page 1:", NamedSql.of(UNFILTERED_PAGE), partner));
        return statements;
    }

    static void run(Connection db, String partnerId) throws Exception {
        System.out.println("\nEXPLAIN (ANALYZE, BUFFERS) of the SQL of RequestQueries.list (count, page 1), bitmap scans off as there:");
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT relname, relpages, relallvisible FROM pg_class WHERE relname IN ('requests', 'line_items')")) {
            while (rs.next()) {
                System.out.printf("-- visibility map: %s %d of %d pages all-visible%n", rs.getString(1), rs.getLong(3), rs.getLong(2));
            }
        }
        try (Statement st = db.createStatement()) {
            st.execute("SET enable_bitmapscan = off");
        }
        for (Explained statement : statements(partnerId)) {
            Explain.print(db, statement.title(), statement.sql(), statement.values());
        }
    }
}

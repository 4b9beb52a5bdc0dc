package com.telemed.bench.requests;

import com.telemed.bench.support.Explain;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * The plans: EXPLAIN (ANALYZE, BUFFERS) with the generic plan of every statement {@code RequestQueries.list}
 * runs for page 1 of each query of {@link RequestsListQueries} (built by requests-service's own
 * {@code RequestQueries}, not a copy), printed and written to bench/results/requests-plans.txt.
 */
final class RequestsListExplain {

    private RequestsListExplain() {
    }

    static void run(Connection db, String partnerId) throws Exception {
        System.out.println("\nEXPLAIN (ANALYZE, BUFFERS), generic plans, of the SQL of RequestQueries.list (page 1 of each query):");
        StringBuilder header = new StringBuilder("GET /v1/requests page 1 (limit 20): 1,000,000 requests with one line item each,"
                + " 100,000 of them the partner under test's, created over two years (bench/requests.sh, RequestsData).");
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT relname, relpages, relallvisible, reltuples::bigint FROM pg_class"
                        + " WHERE relname IN ('requests', 'line_items', 'request_list_counts', 'request_list_month_counts', 'request_list_totals') ORDER BY relname")) {
            while (rs.next()) {
                header.append(String.format("%n%s: %,d rows, %d of %d pages all-visible", rs.getString(1), rs.getLong(4),
                        rs.getLong(3), rs.getLong(2)));
            }
        }
        StringBuilder plans = new StringBuilder();
        for (RequestsListQueries.Query query : RequestsListQueries.all(LocalDate.now(ZoneOffset.UTC))) {
            for (RequestsListQueries.Statement statement : query.statements(partnerId)) {
                Explain.generic(db, "-- GET /v1/requests?" + query.query() + " (" + query.label() + "): " + statement.title(),
                        statement.sql(), statement.values(), plans);
            }
        }
        Explain.writePlans(db, "requests", header.toString(), plans);
    }
}

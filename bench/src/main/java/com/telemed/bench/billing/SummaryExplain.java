package com.telemed.bench.billing;

import com.telemed.bench.support.Explain;
import com.telemed.billing.summary.BillableRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the summary's one read, {@code BillableRows.SQL} from billing-service's own jar (not a
 * copy), bound as billing-service binds it: the partner, then the period's end. Without parallel workers, as the
 * service runs it: it reads through a cursor ({@link BillableRows#FETCH} rows per fetch, in its transaction), and
 * PostgreSQL never runs workers for a portal executed with a row count (the extended protocol's Execute with a fetch
 * count: "When Can Parallel Query Be Used?" in its manual), so the leader alone executes whatever plan it made.
 */
final class SummaryExplain {

    private SummaryExplain() {
    }

    private static String setting(Connection db, String name) throws Exception {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static void run(Connection db, String partnerId, Instant periodEnd) throws Exception {
        System.out.printf("%nEXPLAIN (ANALYZE, BUFFERS) of BillableRows.SQL (billing-service's summary read), partner under test,"
                + " period end %s; max_parallel_workers_per_gather = 0, as the service's cursor runs it (no workers for a portal"
                + " fetched %d rows at a time); work_mem %s:%n", periodEnd, BillableRows.FETCH, setting(db, "work_mem"));
        try (Statement st = db.createStatement()) {
            st.execute("SET max_parallel_workers_per_gather = 0");
            try (PreparedStatement statement = db.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + BillableRows.SQL)) {
                statement.setString(1, partnerId);
                statement.setObject(2, periodEnd.atOffset(ZoneOffset.UTC));
                try (ResultSet rs = statement.executeQuery()) {
                    Explain.printPlan(rs);
                }
            } finally {
                st.execute("RESET max_parallel_workers_per_gather");
            }
        }
    }
}

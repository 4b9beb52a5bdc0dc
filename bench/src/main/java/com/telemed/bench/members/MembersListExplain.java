package com.telemed.bench.members;

import com.telemed.bench.support.Explain;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plans: EXPLAIN (ANALYZE, BUFFERS) of every statement {@code MemberQueries.list} runs for page 1 of each
 * query of {@link MembersListQueries} (built by members-service's own {@code MemberQueries}, not a copy): the
 * generic plan, and for a search also the plan made with its values (the service plans every statement with
 * its values: prepareThreshold=0), printed and written to bench/results/members-list-plans.txt.
 */
final class MembersListExplain {

    private MembersListExplain() {
    }

    static void run(Connection db, String partnerId, Map<MembersListQueries.Query, Long> totals) throws Exception {
        System.out.println("\nEXPLAIN (ANALYZE, BUFFERS) of the SQL of MemberQueries.list (page 1 of each query):");
        StringBuilder header = new StringBuilder("GET /v1/members page 1 (limit 20): 1,000,000 members, 100,000 of them the"
                + " partner under test's (bench/members-list.sh, MembersData).");
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT relname, relpages, relallvisible, reltuples::bigint FROM pg_class"
                        + " WHERE relname IN ('members', 'member_list_counts', 'member_list_versions') ORDER BY relname")) {
            while (rs.next()) {
                header.append(String.format("%n%s: %,d rows, %d of %d pages all-visible", rs.getString(1), rs.getLong(4),
                        rs.getLong(3), rs.getLong(2)));
            }
        }
        StringBuilder plans = new StringBuilder();
        for (MembersListQueries.Query query : MembersListQueries.all()) {
            List<MembersListQueries.Statement> statements = new ArrayList<>(query.counted(partnerId, totals.get(query)));
            statements.addAll(query.statements(partnerId, totals.get(query)));
            for (MembersListQueries.Statement statement : statements) {
                String title = "-- GET /v1/members?" + query.queryString() + " (" + query.label() + "): " + statement.title();
                Explain.generic(db, title, statement.sql(), statement.values(), plans);
                if (query.search() != null) {
                    Explain.prepared(db, title + ", planned with its values (as the service runs it)", statement.sql(),
                            statement.values(), "force_custom_plan", plans);
                }
            }
        }
        Explain.writePlans(db, "members-list", header.toString(), plans);
    }
}

package com.telemed.bench.members;

import com.telemed.bench.support.Explain;
import com.telemed.bench.support.NamedSql;
import com.telemed.members.member.MemberQueries;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The measurement: EXPLAIN (ANALYZE, BUFFERS) of what {@code MemberQueries.list} runs for page 1
 * of each query shape (the count, then the page), its SQL built by members-service's own
 * {@code MemberQueries} (where, countQuery, pageQuery, pattern), not a copy; then the generic plan a
 * server-prepared statement can end up with, for the shortest term.
 */
final class MembersListExplain {

    /** Page 1 as the list benchmark asks for it (no limit: the contract's default). */
    static final int LIMIT = 20;
    static final long OFFSET = 0;

    /** A statement of {@code MemberQueries.list}, with the values it is bound with. */
    record Explained(String title, NamedSql sql, Map<String, Object> values) {
    }

    private MembersListExplain() {
    }

    /** Each shape's count and page: shape name, status (null: none), search term (null: none). */
    static List<Explained> statements(String partnerId) {
        String[][] shapes = {
                {"no filter", null, null},
                {"status=active", "active", null},
                {"search=smith", null, "smith"},
                {"search=mail.test", null, "mail.test"},
                {"search=quackenbush", null, "quackenbush"},
                {"search=zzqx", null, "zzqx"},
                {"search=jo", null, "jo"}};
        List<Explained> statements = new ArrayList<>();
        for (String[] shape : shapes) {
            String where = MemberQueries.where(shape[1] != null, shape[2]);
            Map<String, Object> values = new HashMap<>();
            values.put("partnerId", partnerId);
            if (shape[1] != null) {
                values.put("status", shape[1]);
            }
            if (shape[2] != null) {
                values.put("pattern", MemberQueries.pattern(shape[2]));
            }
            values.put("limit", LIMIT);
            values.put("offset", OFFSET);
            statements.add(new Explained("-- " + shape[0] + ", count", NamedSql.of(MemberQueries.countQuery(where)), values));
            statements.add(new Explained("-- " + shape[0] + ", page 1", NamedSql.of(MemberQueries.pageQuery(where)), values));
        }
        return statements;
    }

    /** The count of a search, as PREPARE takes it: partnerId is $1, pattern $2. */
    static NamedSql genericCount() {
        NamedSql count = NamedSql.of(MemberQueries.countQuery(MemberQueries.where(false, "jo")));
        if (!count.parameters().equals(List.of("partnerId", "pattern"))) {
            throw new IllegalStateException("MemberQueries' search count now takes " + count.parameters() + ": " + count);
        }
        return count;
    }

    static void run(Connection db, String partnerId) throws Exception {
        System.out.println("\nEXPLAIN (ANALYZE, BUFFERS), SQL as MemberQueries.list runs it (count, then page), summary lines:");
        for (Explained statement : statements(partnerId)) {
            Explain.print(db, statement.title(), statement.sql(), statement.values());
        }
        // The service runs these as JDBC prepared statements: after 5 executions pgjdbc prepares them
        // on the server and PostgreSQL may then keep a generic plan, made without knowing the pattern.
        System.out.println("-- search=jo, count, GENERIC plan (what a server-prepared statement can end up with):");
        try (Statement st = db.createStatement()) {
            st.execute("SET plan_cache_mode = force_generic_plan");
            st.execute("PREPARE bench_count(text, text) AS " + genericCount().positional());
            try (ResultSet rs = st.executeQuery("EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_count('"
                    + partnerId.replace("'", "''") + "', '" + MemberQueries.pattern("jo").replace("'", "''") + "')")) {
                Explain.printPlan(rs);
            }
            st.execute("DEALLOCATE bench_count");
            st.execute("RESET plan_cache_mode");
        }
    }
}

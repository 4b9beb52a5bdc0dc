package com.telemed.bench.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;

/** Prints EXPLAIN (ANALYZE, BUFFERS) of a statement: a title line, then the plan, each line indented. */
public final class Explain {

    private Explain() {
    }

    public static void print(Connection db, String title, NamedSql sql, Map<String, ?> values) throws Exception {
        System.out.println(title);
        try (PreparedStatement statement = sql.prepare(db, "EXPLAIN (ANALYZE, BUFFERS) ", values);
             ResultSet rs = statement.executeQuery()) {
            printPlan(rs);
        }
    }

    /** The rows of an EXPLAIN already run, each indented by 3. */
    public static void printPlan(ResultSet rs) throws Exception {
        while (rs.next()) {
            System.out.println("   " + rs.getString(1));
        }
    }
}

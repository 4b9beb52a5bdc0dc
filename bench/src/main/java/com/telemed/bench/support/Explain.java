package com.telemed.bench.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
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

    /**
     * EXPLAIN (ANALYZE, BUFFERS) of the statement as a server-prepared statement with its generic plan
     * ({@code plan_cache_mode = force_generic_plan}: the plan a prepared statement may keep from its sixth
     * execution on, whatever the values): PREPARE of the text with $1, $2, ... ({@link NamedSql#positional},
     * types inferred by PostgreSQL), EXECUTE with the values as literals. Printed, and appended to {@code plans}.
     */
    public static void generic(Connection db, String title, NamedSql sql, Map<String, ?> values, StringBuilder plans) throws Exception {
        prepared(db, title, sql, values, "force_generic_plan", plans);
    }

    /** As {@link #generic}, with the plan cache mode given ({@code force_custom_plan}: planned with the values, as on every execution). */
    public static void prepared(Connection db, String title, NamedSql sql, Map<String, ?> values, String planCacheMode,
                                StringBuilder plans) throws Exception {
        List<String> unbound = sql.unbound(values);
        if (!unbound.isEmpty()) {
            throw new IllegalArgumentException("no value for " + unbound + " in " + sql);
        }
        StringBuilder arguments = new StringBuilder();
        for (String name : new LinkedHashSet<>(sql.parameters())) {
            Object value = values.get(name);
            arguments.append(arguments.length() == 0 ? "" : ", ")
                    .append(value instanceof Number ? value.toString() : "'" + value.toString().replace("'", "''") + "'");
        }
        StringBuilder text = new StringBuilder(title).append('\n').append("   ").append(sql.positional())
                .append("\n   -- values: ").append(arguments).append("; plan_cache_mode = ").append(planCacheMode).append('\n');
        try (Statement st = db.createStatement()) {
            st.execute("PREPARE bench_explained AS " + sql.positional());
            try {
                st.execute("SET plan_cache_mode = " + planCacheMode);
                try (ResultSet rs = st.executeQuery("EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_explained (" + arguments + ")")) {
                    while (rs.next()) {
                        text.append("   ").append(rs.getString(1)).append('\n');
                    }
                }
            } finally {
                st.execute("RESET plan_cache_mode");
                st.execute("DEALLOCATE bench_explained");
            }
        }
        System.out.print(text);
        plans.append(text).append('\n');
    }

    /**
     * Writes the plans {@link #generic} collected to {@code bench/results/<bench>-plans.txt} (committed beside
     * the figures: bench/results/README.md), under a header saying what was measured and on what server.
     */
    public static Path writePlans(Connection db, String bench, String header, StringBuilder plans) throws Exception {
        String server;
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT version()")) {
            rs.next();
            server = rs.getString(1);
        }
        Path file = BenchPlatform.root().resolve("bench/results/" + bench + "-plans.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "-- " + header.replace("\n", "\n-- ") + "\n-- " + server + "; EXPLAIN (ANALYZE, BUFFERS) of server-prepared"
                + " statements, generic plans unless a statement says otherwise, written by bench/" + bench + ".sh on " + Instant.now() + "\n\n" + plans);
        System.out.println("plans written to " + BenchPlatform.root().relativize(file));
        return file;
    }

    /** The rows of an EXPLAIN already run, each indented by 3. */
    public static void printPlan(ResultSet rs) throws Exception {
        while (rs.next()) {
            System.out.println("   " + rs.getString(1));
        }
    }
}

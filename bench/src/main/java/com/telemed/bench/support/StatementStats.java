package com.telemed.bench.support;

import com.telemed.testkit.infra.EmbeddedPostgresServer;
import com.telemed.testkit.infra.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What PostgreSQL ran, statement by statement, from {@code pg_stat_statements} (the server must
 * preload it: {@link #preloadForTheNextPlatform()} before {@link BenchPlatform#start()}): reset before a measured round, read
 * after it, so each statement's calls and execution time can be set per event (per create, say).
 * Planning is not tracked (the default), so times are execution only.
 */
public final class StatementStats {

    /** One normalised statement of one database: calls, rows and execution time in the round. */
    public record Entry(String database, String query, long calls, long rows, double totalMs) {

        public double perEvent(long events) {
            return (double) calls / events;
        }
    }

    private final PostgresServer postgres;

    /** The next embedded PostgreSQL this JVM starts preloads {@code pg_stat_statements}. */
    public static void preloadForTheNextPlatform() {
        System.setProperty(EmbeddedPostgresServer.PRELOAD_PROPERTY, "pg_stat_statements");
    }

    private StatementStats(PostgresServer postgres) {
        this.postgres = postgres;
    }

    /** Null (said why) when the server has no {@code pg_stat_statements} loaded. */
    public static StatementStats of(PostgresServer postgres) {
        try (Connection db = connect(postgres); Statement st = db.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.executeQuery("SELECT count(*) FROM pg_stat_statements").close();
            return new StatementStats(postgres);
        } catch (Exception e) {
            System.out.println("(no statement statistics: " + e.getMessage().lines().findFirst().orElse("") + ")");
            return null;
        }
    }

    public void reset() throws Exception {
        try (Connection db = connect(postgres); Statement st = db.createStatement()) {
            st.executeQuery("SELECT pg_stat_statements_reset()").close();
        }
    }

    /** Every statement run since the reset, by database and total time, longest first. */
    public List<Entry> read() throws Exception {
        List<Entry> entries = new ArrayList<>();
        try (Connection db = connect(postgres); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT d.datname, s.query, s.calls, s.rows, s.total_exec_time"
                     + " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                     + " WHERE d.datname <> 'postgres' ORDER BY d.datname, s.total_exec_time DESC")) {
            while (rs.next()) {
                entries.add(new Entry(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getDouble(5)));
            }
        }
        return entries;
    }

    /**
     * The statements run at least {@code minPerEvent} times per event, by database: calls per
     * event, mean and per-event execution time; then each database's execution time per event.
     */
    public static String describe(List<Entry> entries, long events, double minPerEvent) {
        StringBuilder out = new StringBuilder();
        String database = null;
        double databaseMs = 0;
        double allMs = 0;
        for (Entry entry : entries) {
            if (entry.perEvent(events) < minPerEvent) {
                continue;
            }
            if (!entry.database().equals(database)) {
                if (database != null) {
                    out.append(String.format("  %s: %.3f ms of execution per event%n", database, databaseMs));
                }
                database = entry.database();
                databaseMs = 0;
                out.append(String.format("%s:%n", database));
            }
            double perEventMs = entry.totalMs() / events;
            databaseMs += perEventMs;
            allMs += perEventMs;
            out.append(String.format("  %5.2f/event  mean %6.3f ms  %6.3f ms/event  %s%n", entry.perEvent(events),
                    entry.totalMs() / Math.max(1, entry.calls()), perEventMs, oneLine(entry.query())));
        }
        if (database != null) {
            out.append(String.format("  %s: %.3f ms of execution per event%n", database, databaseMs));
        }
        out.append(String.format("all databases: %.3f ms of statement execution per event%n", allMs));
        return out.toString();
    }

    /** Every entry, its query in full on one line: database, calls per event, mean ms, query (tab-separated). */
    public static void write(List<Entry> entries, long events, Path file) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder out = new StringBuilder("database\tcallsPerEvent\tmeanMs\tquery\n");
        for (Entry entry : entries) {
            out.append(entry.database()).append('\t').append(String.format("%.3f", entry.perEvent(events))).append('\t')
                    .append(String.format("%.4f", entry.totalMs() / Math.max(1, entry.calls()))).append('\t')
                    .append(entry.query().replaceAll("\\s+", " ").strip()).append('\n');
        }
        Files.writeString(file, out);
    }

    private static String oneLine(String query) {
        String line = query.replaceAll("\\s+", " ").strip();
        return line.length() > 160 ? line.substring(0, 157) + "..." : line;
    }

    private static Connection connect(PostgresServer postgres) throws Exception {
        return DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password());
    }
}

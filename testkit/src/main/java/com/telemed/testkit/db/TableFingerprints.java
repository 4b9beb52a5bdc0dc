package com.telemed.testkit.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Whether anything was written to a database between two moments, in one cheap statement: per
 * table the row count and the sum of the rows' {@code xmin} (the transaction that wrote each row
 * version). An insert or delete changes the count; an update gives the row a new version and so a
 * new {@code xmin}, even when it writes the same values; a row lock ({@code SELECT ... FOR UPDATE})
 * or a read changes neither. Vacuum and freezing keep {@code xmin} as it is.
 *
 * <p>Tables the platform writes in the background are declared: an outbox the relay empties is
 * watched through its id sequence (an insert moves it, the relay's deletes do not); a table that
 * fills with other rows is fingerprinted only over the rows a {@code WHERE} clause keeps.
 */
public final class TableFingerprints implements AutoCloseable {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");

    /** The fingerprint of every table at one moment, by table name. */
    public record Snapshot(Map<String, String> tables) {

        /** The tables whose fingerprint differs, each as {@code table: before -> after}. */
        public List<String> changesTo(Snapshot after) {
            List<String> changes = new ArrayList<>();
            tables.forEach((table, value) -> {
                String later = after.tables.get(table);
                if (!Objects.equals(value, later)) {
                    changes.add(table + ": " + value + " -> " + later);
                }
            });
            after.tables.keySet().stream().filter(table -> !tables.containsKey(table))
                    .forEach(table -> changes.add(table + ": new"));
            return changes;
        }
    }

    /** How the background-written tables are read; every other table is fingerprinted whole. */
    public static final class Rules {
        private final Map<String, String> insertsOnly = new LinkedHashMap<>();
        private final Map<String, String> where = new LinkedHashMap<>();

        /** Watches only inserts into {@code table}, through the sequence of its serial {@code column}. */
        public Rules insertsOnly(String table, String column) {
            insertsOnly.put(safe(table), safe(column));
            return this;
        }

        /** Fingerprints only the rows of {@code table} that {@code condition} (SQL) keeps. */
        public Rules where(String table, String condition) {
            where.put(safe(table), condition);
            return this;
        }
    }

    private final Connection connection;
    private final String query;

    private TableFingerprints(Connection connection, String query) {
        this.connection = connection;
        this.query = query;
    }

    /** Connects and builds the statement over every table in {@code public}, as the rules say. */
    public static TableFingerprints connect(String jdbcUrl, String username, String password, Rules rules) {
        try {
            Connection connection = DriverManager.getConnection(jdbcUrl, username, password);
            connection.setAutoCommit(true);
            List<String> parts = new ArrayList<>();
            for (String table : tables(connection)) {
                if (rules.insertsOnly.containsKey(table)) {
                    String sequence = sequenceOf(connection, table, rules.insertsOnly.get(table));
                    parts.add("SELECT '" + table + "', (SELECT last_value || '/' || is_called FROM " + sequence + ")");
                } else {
                    String condition = rules.where.containsKey(table) ? " WHERE " + rules.where.get(table) : "";
                    parts.add("SELECT '" + table + "', count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) FROM "
                            + table + condition);
                }
            }
            if (parts.isEmpty()) {
                connection.close();
                throw new IllegalStateException("no tables in " + jdbcUrl);
            }
            return new TableFingerprints(connection, String.join(" UNION ALL ", parts));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the tables of " + jdbcUrl, e);
        }
    }

    public Snapshot take() {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            Map<String, String> tables = new LinkedHashMap<>();
            while (rows.next()) {
                tables.put(rows.getString(1), rows.getString(2));
            }
            return new Snapshot(tables);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot fingerprint the tables", e);
        }
    }

    private static List<String> tables(Connection connection) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
                     + " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
            while (rows.next()) {
                tables.add(safe(rows.getString(1)));
            }
        }
        return tables;
    }

    private static String sequenceOf(Connection connection, String table, String column) throws SQLException {
        try (var statement = connection.prepareStatement("SELECT pg_get_serial_sequence(?, ?)")) {
            statement.setString(1, table);
            statement.setString(2, column);
            try (ResultSet rows = statement.executeQuery()) {
                String sequence = rows.next() ? rows.getString(1) : null;
                if (sequence == null) {
                    throw new IllegalStateException(table + "." + column + " has no sequence");
                }
                return sequence;
            }
        }
    }

    private static String safe(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("unexpected table or column name: " + name);
        }
        return name;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}

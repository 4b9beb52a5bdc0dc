package com.telemed.testkit.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.postgresql.PGStatement;

/**
 * Whether anything was written to a database between two moments, in one cheap statement: per
 * table the row count and the sum of the rows' {@code xmin} (the transaction that wrote each row
 * version). An insert or delete changes the count; an update gives the row a new version and so a
 * new {@code xmin}, even when it writes the same values; a row lock ({@code SELECT ... FOR UPDATE})
 * or a read changes neither. Vacuum and freezing keep {@code xmin} as it is.
 *
 * <p>Tables the platform writes in the background are declared: an outbox the relay empties is
 * watched through its id sequence (an insert moves it, the relay's deletes do not), less the rows
 * the background inserted there when it does; a table that fills with other rows is fingerprinted
 * only over the rows a {@code WHERE} clause keeps; a table whose rows the background updates in
 * some columns is fingerprinted by the values of the others; a table only the background writes
 * is left out.
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
        private final Map<String, String> backgroundInserts = new LinkedHashMap<>();
        private final Map<String, String> where = new LinkedHashMap<>();
        private final Map<String, List<String>> content = new LinkedHashMap<>();
        private final List<String> ignored = new ArrayList<>();

        /** Watches only inserts into {@code table}, through the sequence of its serial {@code column}. */
        public Rules insertsOnly(String table, String column) {
            insertsOnly.put(safe(table), safe(column));
            return this;
        }

        /**
         * As {@link #insertsOnly}, less the rows the background inserted, which {@code backgroundInserts}
         * (SQL, a number) counts from what the same transactions left in tables that keep it. A
         * sequence moves when a row is inserted, the trace of its transaction shows when it commits:
         * the table is locked ({@code SHARE}: no insert under way, none starting) while a snapshot
         * is read, so the two always agree.
         */
        public Rules insertsOnly(String table, String column, String backgroundInserts) {
            insertsOnly(table, column);
            this.backgroundInserts.put(safe(table), backgroundInserts);
            return this;
        }

        /** Fingerprints only the rows of {@code table} that {@code condition} (SQL) keeps. */
        public Rules where(String table, String condition) {
            where.put(safe(table), condition);
            return this;
        }

        /**
         * Fingerprints {@code table} by the values of {@code expressions} (SQL over one row: its
         * columns, or a value the background's writes leave as it is) instead of its row versions:
         * for a table whose rows the background updates in some columns. An update that writes
         * the values a row already has goes unseen here.
         */
        public Rules content(String table, String... expressions) {
            if (expressions.length == 0) {
                throw new IllegalArgumentException("no expressions for " + table);
            }
            content.put(safe(table), List.of(expressions));
            return this;
        }

        /** Leaves {@code table} out: only the background writes it. */
        public Rules ignore(String table) {
            ignored.add(safe(table));
            return this;
        }
    }

    private final Connection connection;
    /** The one statement, prepared once: parsed and planned by the server once, not at every snapshot. */
    private final PreparedStatement query;
    /** {@code LOCK TABLE ... IN SHARE MODE}, taken in the snapshot's transaction, or null. */
    private final String lock;

    private TableFingerprints(Connection connection, PreparedStatement query, String lock) {
        this.connection = connection;
        this.query = query;
        this.lock = lock;
    }

    /** Connects and builds the statement over every table in {@code public}, as the rules say. */
    public static TableFingerprints connect(String jdbcUrl, String username, String password, Rules rules) {
        try {
            Connection connection = DriverManager.getConnection(jdbcUrl, username, password);
            List<String> tables = tables(connection);
            List<String> parts = new ArrayList<>();
            for (String table : tables) {
                if (rules.ignored.contains(table)) {
                    continue;
                }
                String condition = rules.where.containsKey(table) ? " WHERE " + rules.where.get(table) : "";
                if (rules.insertsOnly.containsKey(table)) {
                    String sequence = sequenceOf(connection, table, rules.insertsOnly.get(table));
                    String inserted = rules.backgroundInserts.containsKey(table)
                            // The inserts so far plus a constant: is_called turns true with the first, which leaves last_value as it was.
                            ? "last_value + is_called::int - (" + rules.backgroundInserts.get(table) + ")"
                            : "last_value || '/' || is_called";
                    parts.add("SELECT '" + table + "', (SELECT (" + inserted + ")::text FROM " + sequence + ")");
                } else if (rules.content.containsKey(table)) {
                    String row = "ROW(" + String.join(", ", rules.content.get(table)) + ")::text";
                    parts.add("SELECT '" + table + "', count(*) || '/' || coalesce(md5(string_agg(" + row + ", ',' ORDER BY "
                            + row + ")), '') FROM " + table + condition);
                } else {
                    parts.add("SELECT '" + table + "', count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) FROM "
                            + table + condition);
                }
            }
            // A rule for a table that is not there (misspelt, renamed) would relax nothing and say nothing.
            List<String> declared = new ArrayList<>(rules.insertsOnly.keySet());
            declared.addAll(rules.where.keySet());
            declared.addAll(rules.content.keySet());
            declared.addAll(rules.ignored);
            for (String table : declared) {
                if (!tables.contains(table)) {
                    connection.close();
                    throw new IllegalStateException("a rule names " + table + ", which " + jdbcUrl + " does not have");
                }
            }
            if (parts.isEmpty()) {
                connection.close();
                throw new IllegalStateException("no tables in " + jdbcUrl);
            }
            String lock = rules.backgroundInserts.isEmpty() ? null
                    : "LOCK TABLE " + String.join(", ", rules.backgroundInserts.keySet()) + " IN SHARE MODE";
            connection.setAutoCommit(lock == null);
            PreparedStatement query = connection.prepareStatement(String.join(" UNION ALL ", parts));
            // Server-side from the first execution (pgjdbc's default waits for the fifth).
            query.unwrap(PGStatement.class).setPrepareThreshold(1);
            return new TableFingerprints(connection, query, lock);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the tables of " + jdbcUrl, e);
        }
    }

    public Snapshot take() {
        try (Statement statement = connection.createStatement()) {
            if (lock != null) {
                // In the snapshot's transaction; the query after it reads what committed before the lock was granted.
                statement.execute(lock);
            }
            Map<String, String> tables = new LinkedHashMap<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    tables.put(rows.getString(1), rows.getString(2));
                }
            }
            if (lock != null) {
                connection.commit();
            }
            return new Snapshot(tables);
        } catch (SQLException e) {
            if (lock != null) {
                try {
                    connection.rollback();
                } catch (SQLException ignored) {
                    // the connection is reported broken below
                }
            }
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

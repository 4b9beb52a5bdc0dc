package com.telemed.testkit.db;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What each rule sees and what it lets pass: a whole table sees every insert, update and delete
 * but no row lock; an outbox sees inserts only, less those of the background's transactions;
 * a content rule sees the values it names; an ignored table nothing.
 */
class TableFingerprintsTest {

    /** The test JVM's server: each test a database of its own on it. */
    private static PostgresServer postgres;

    private String url;
    private Connection writer;

    @BeforeAll
    static void start() {
        postgres = Infrastructure.shared().postgres();
    }

    @BeforeEach
    void database() throws SQLException {
        String name = "fingerprints_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        postgres.ensureDatabase(name);
        url = postgres.jdbcUrl(name);
        writer = DriverManager.getConnection(url, postgres.username(), postgres.password());
        sql("CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, touched_at int NOT NULL)",
                "CREATE TABLE outbox (id bigserial PRIMARY KEY, payload text NOT NULL)",
                "CREATE TABLE background_log (id int PRIMARY KEY)",
                "INSERT INTO things VALUES (1, 'one', 0), (2, 'two', 0)");
    }

    @AfterEach
    void close() throws SQLException {
        writer.close();
    }

    private TableFingerprints connect(TableFingerprints.Rules rules) {
        return TableFingerprints.connect(url, postgres.username(), postgres.password(), rules);
    }

    private void sql(String... statements) throws SQLException {
        try (Statement statement = writer.createStatement()) {
            for (String each : statements) {
                statement.execute(each);
            }
        }
    }

    /** The statements in one transaction of the writer, as the background writes. */
    private void transaction(String... statements) throws SQLException {
        writer.setAutoCommit(false);
        sql(statements);
        writer.commit();
        writer.setAutoCommit(true);
    }

    @Test
    void aWholeTableShowsInsertsUpdatesAndDeletesButNotRowLocks() throws SQLException {
        try (TableFingerprints tables = connect(new TableFingerprints.Rules())) {
            TableFingerprints.Snapshot before = tables.take();
            transaction("SELECT * FROM things FOR UPDATE");
            assertEquals(List.of(), before.changesTo(tables.take()));

            sql("UPDATE things SET name = name WHERE id = 1");
            TableFingerprints.Snapshot updated = tables.take();
            assertEquals(List.of("things"), changed(before, updated));
            sql("DELETE FROM things WHERE id = 2");
            assertEquals(List.of("things"), changed(updated, tables.take()));
        }
    }

    @Test
    void anOutboxShowsInsertsButNotTheRelaysDeletesNorTheBackgroundsInserts() throws SQLException {
        TableFingerprints.Rules rules = new TableFingerprints.Rules()
                .insertsOnly("outbox", "id", "SELECT count(*) FROM background_log")
                .ignore("background_log");
        try (TableFingerprints tables = connect(rules)) {
            TableFingerprints.Snapshot first = tables.take();
            transaction("INSERT INTO background_log VALUES (1)", "INSERT INTO outbox (payload) VALUES ('background')");
            sql("DELETE FROM outbox");
            assertEquals(List.of(), first.changesTo(tables.take()));

            sql("INSERT INTO outbox (payload) VALUES ('a call')");
            TableFingerprints.Snapshot called = tables.take();
            assertEquals(List.of("outbox"), changed(first, called));
            sql("DELETE FROM outbox");
            assertEquals(List.of(), called.changesTo(tables.take()));
        }
    }

    @Test
    void aSnapshotWaitsForAnInsertUnderWayInsteadOfCountingItHalfDone() throws Exception {
        TableFingerprints.Rules rules = new TableFingerprints.Rules()
                .insertsOnly("outbox", "id", "SELECT count(*) FROM background_log")
                .ignore("background_log");
        try (TableFingerprints tables = connect(rules)) {
            TableFingerprints.Snapshot before = tables.take();
            // The background's transaction has its sequence number, not yet its commit.
            writer.setAutoCommit(false);
            sql("INSERT INTO background_log VALUES (1)", "INSERT INTO outbox (payload) VALUES ('background')");
            CompletableFuture<TableFingerprints.Snapshot> during = CompletableFuture.supplyAsync(tables::take);
            await().atMost(Duration.ofSeconds(30)).until(() -> waitingForALock() == 1);
            writer.commit();
            writer.setAutoCommit(true);
            assertEquals(List.of(), before.changesTo(during.get(30, TimeUnit.SECONDS)));
        }
    }

    @Test
    void aContentRuleShowsItsValuesOnly() throws SQLException {
        TableFingerprints.Rules rules = new TableFingerprints.Rules().content("things", "id", "name");
        try (TableFingerprints tables = connect(rules)) {
            TableFingerprints.Snapshot before = tables.take();
            sql("UPDATE things SET touched_at = touched_at + 1");
            assertEquals(List.of(), before.changesTo(tables.take()));

            sql("UPDATE things SET name = 'uno' WHERE id = 1");
            TableFingerprints.Snapshot renamed = tables.take();
            assertEquals(List.of("things"), changed(before, renamed));
            sql("INSERT INTO things VALUES (3, 'three', 0)");
            assertEquals(List.of("things"), changed(renamed, tables.take()));
        }
    }

    @Test
    void anIgnoredTableIsNotRead() throws SQLException {
        try (TableFingerprints tables = connect(new TableFingerprints.Rules().ignore("background_log"))) {
            TableFingerprints.Snapshot before = tables.take();
            sql("INSERT INTO background_log VALUES (7)");
            TableFingerprints.Snapshot after = tables.take();
            assertEquals(List.of(), before.changesTo(after));
            assertEquals(List.of("outbox", "things"), List.copyOf(after.tables().keySet()));
        }
    }

    @Test
    void aRuleForATableThatIsNotThereIsRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> connect(new TableFingerprints.Rules().where("thinsg", "id > 1")));
        assertEquals("a rule names thinsg, which " + url + " does not have", refused.getMessage());
    }

    private static List<String> changed(TableFingerprints.Snapshot before, TableFingerprints.Snapshot after) {
        return before.changesTo(after).stream().map(change -> change.substring(0, change.indexOf(':'))).toList();
    }

    /** Sessions of this database waiting for a lock: the fingerprints' snapshot behind the writer's insert. */
    private int waitingForALock() throws SQLException {
        try (Connection watcher = DriverManager.getConnection(url, postgres.username(), postgres.password());
             var rows = watcher.createStatement().executeQuery("SELECT count(*) FROM pg_stat_activity"
                     + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}

package com.telemed.webhook.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Migration V8 on a database the previous release wrote, on a database of its own on the test JVM's shared
 * PostgreSQL: it rewrites no row, the events API's read ({@link EventReads#ONE}) still shows each delivery's attempt of
 * the greatest id (read from {@code delivery_attempts} for a delivery recorded before V8, an earlier id holding a later
 * time included) and none for a delivery never attempted; and attempts inserted as the previous release inserts them
 * (its recorder's {@code UPDATE} sets neither column, during a rolling update) are kept on the row by V8's trigger, the
 * greatest id whatever the order of the statements.
 */
class LastAttemptMigrationTest {

    private static final String PARTNER = "partner-1";

    private static final String EVENT = "INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at)"
            + " VALUES ('%s', '" + PARTNER + "', %d, 'envelope-%d', 'item.approved', '{}', now())";

    private static final String DELIVERY = "INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature,"
            + " status, attempt_count, round_attempts, created_at, updated_at) VALUES ('%s', '" + PARTNER + "', 'envelope-%d',"
            + " 'item.approved', '{}', '1763717400', 'sha256=00', '%s', %d, %d, now(), now())";

    private static final String ATTEMPT = "INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms)"
            + " VALUES ('%s', '%s', 500, NULL, 3)";

    private static final String DELIVERED = "00000000-0000-0000-0000-000000000001";
    private static final String FAILED = "00000000-0000-0000-0000-000000000002";
    private static final String UNTRIED = "00000000-0000-0000-0000-000000000003";
    private static final String LATER = "00000000-0000-0000-0000-000000000004";

    @Test
    void rowsRecordedBeforeShowTheirNewestAttemptAndLaterInsertsKeepIt() throws Exception {
        PostgresServer postgres = Infrastructure.shared().postgres();
        String database = "webhook_last_attempt_" + UUID.randomUUID().toString().replace("-", "");
        postgres.ensureDatabase(database);
        String url = postgres.jdbcUrl(database);
        try {
            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").target("7").load().migrate();
            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                 Statement statement = connection.createStatement()) {
                int seq = 0;
                for (String id : List.of(DELIVERED, FAILED, UNTRIED, LATER)) {
                    seq++;
                    statement.executeUpdate(String.format(EVENT, id, seq, seq));
                }
                statement.executeUpdate(String.format(DELIVERY, DELIVERED, 1, "delivered", 1, 1));
                statement.executeUpdate(String.format(DELIVERY, FAILED, 2, "failed", 3, 3));
                statement.executeUpdate(String.format(DELIVERY, UNTRIED, 3, "retrying", 0, 0));
                statement.executeUpdate(String.format(DELIVERY, LATER, 4, "retrying", 0, 0));
                statement.executeUpdate("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES"
                        + " ('" + FAILED + "', '2026-11-21T09:30:00.000001Z', 500, NULL, 3),"
                        + " ('" + DELIVERED + "', '2026-11-21T09:30:01Z', 200, NULL, 3),"
                        + " ('" + FAILED + "', '2026-11-21T09:30:09Z', 500, NULL, 3),"
                        + " ('" + FAILED + "', '2026-11-21T09:30:02.5Z', NULL, 'connection failed', 0)");
            }

            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").load().migrate();

            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                 Statement statement = connection.createStatement()) {
                assertEquals(List.of("1 null null", "2 null null", "3 null null", "4 null null"), stored(connection),
                        "V8 rewrites no row");
                assertEquals("2026-11-21T09:30:01Z", lastAttemptAt(connection, DELIVERED));
                assertEquals("2026-11-21T09:30:02.500Z", lastAttemptAt(connection, FAILED), "the attempt of the greatest id");
                assertEquals("null", lastAttemptAt(connection, UNTRIED));

                // The previous release's recorder during a rolling update: the attempt, then its UPDATE without the columns.
                statement.executeUpdate(String.format(ATTEMPT, LATER, "2026-11-21T10:00:05Z"));
                statement.executeUpdate("UPDATE deliveries SET attempt_count = attempt_count + 1 WHERE id = '" + LATER + "'");
                assertEquals("2026-11-21T10:00:05Z", lastAttemptAt(connection, LATER));
                // A second attempt, its time earlier (another replica's clock), its id greater: it is the newest.
                statement.executeUpdate(String.format(ATTEMPT, LATER, "2026-11-21T10:00:01Z"));
                assertEquals("2026-11-21T10:00:01Z", lastAttemptAt(connection, LATER));
                // A delivery recorded before V8 attempted again: the new attempt is kept on its row.
                statement.executeUpdate(String.format(ATTEMPT, FAILED, "2026-11-21T10:00:00Z"));
                assertEquals("2026-11-21T10:00:00Z", lastAttemptAt(connection, FAILED));
                // Several deliveries in one statement, one of them twice: the greatest id of each.
                statement.executeUpdate("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES"
                        + " ('" + DELIVERED + "', '2026-11-21T11:00:02Z', 200, NULL, 3),"
                        + " ('" + LATER + "', '2026-11-21T11:00:03Z', 200, NULL, 3),"
                        + " ('" + DELIVERED + "', '2026-11-21T11:00:01Z', 200, NULL, 3)");
                assertEquals("2026-11-21T11:00:01Z", lastAttemptAt(connection, DELIVERED));
                assertEquals("2026-11-21T11:00:03Z", lastAttemptAt(connection, LATER));
                assertEquals(List.of("1 10 11:00:01.000000", "2 7 10:00:00.000000", "3 null null", "4 9 11:00:03.000000"),
                        stored(connection), "each row holds the attempt of the greatest id");
            }
        } finally {
            try (Connection admin = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password())) {
                admin.createStatement().executeUpdate("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    /** Each delivery's last digit, {@code last_attempt_id} and {@code last_attempt_at}'s time of day (UTC). */
    private static List<String> stored(Connection connection) throws SQLException {
        List<String> kept = new ArrayList<>();
        try (ResultSet rows = connection.createStatement().executeQuery("SELECT id, last_attempt_id,"
                + " to_char(last_attempt_at AT TIME ZONE 'UTC', 'HH24:MI:SS.US') FROM deliveries ORDER BY id")) {
            while (rows.next()) {
                kept.add(rows.getString(1).substring(35) + " " + rows.getObject(2) + " " + rows.getString(3));
            }
        }
        return kept;
    }

    /** {@code lastAttemptAt} as the events API reads it ({@link EventReads#ONE}), ISO-8601 in UTC, or "null". */
    private static String lastAttemptAt(Connection connection, String id) throws SQLException {
        try (PreparedStatement one = connection.prepareStatement(EventReads.ONE)) {
            one.setObject(1, UUID.fromString(id));
            one.setString(2, PARTNER);
            try (ResultSet row = one.executeQuery()) {
                if (!row.next()) {
                    throw new AssertionError("no event " + id);
                }
                java.sql.Timestamp at = row.getTimestamp(7);
                return at == null ? "null" : at.toInstant().toString();
            }
        }
    }
}

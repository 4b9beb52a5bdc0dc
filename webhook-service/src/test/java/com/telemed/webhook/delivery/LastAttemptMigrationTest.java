package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.infra.EmbeddedPostgresServer;
import com.telemed.testkit.infra.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Migration V8 on a database the previous release wrote: each delivery gets its attempt of the greatest id (the one
 * the events page's subquery read) as {@code last_attempt_id} and {@code last_attempt_at}, even where an earlier id
 * holds a later time; a delivery without attempts keeps both null.
 */
class LastAttemptMigrationTest {

    private static final String DELIVERY = "INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature,"
            + " status, attempt_count, round_attempts, created_at, updated_at) VALUES ('%s', 'partner-1', '%s', 'item.approved',"
            + " '{}', '1763717400', 'sha256=00', '%s', %d, %d, now(), now())";

    @Test
    void eachDeliveryKeepsItsAttemptOfTheGreatestId() throws Exception {
        Path directory = Files.createTempDirectory("webhook-migration-");
        try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(directory.resolve("postgres"), 0, false)) {
            postgres.ensureDatabase("webhook_v7");
            String url = postgres.jdbcUrl("webhook_v7");
            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").target("7").load().migrate();
            String delivered = "00000000-0000-0000-0000-000000000001";
            String failed = "00000000-0000-0000-0000-000000000002";
            String untried = "00000000-0000-0000-0000-000000000003";
            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                 Statement statement = connection.createStatement()) {
                statement.executeUpdate(String.format(DELIVERY, delivered, "e-1", "delivered", 1, 1));
                statement.executeUpdate(String.format(DELIVERY, failed, "e-2", "failed", 3, 3));
                statement.executeUpdate(String.format(DELIVERY, untried, "e-3", "retrying", 0, 0));
                statement.executeUpdate("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES"
                        + " ('" + failed + "', '2026-11-21T09:30:00.000001Z', 500, NULL, 3),"
                        + " ('" + delivered + "', '2026-11-21T09:30:01Z', 200, NULL, 3),"
                        + " ('" + failed + "', '2026-11-21T09:30:09Z', 500, NULL, 3),"
                        + " ('" + failed + "', '2026-11-21T09:30:02.5Z', NULL, 'connection failed', 0)");
            }

            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").load().migrate();

            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT id, last_attempt_id, to_char(last_attempt_at AT TIME ZONE 'UTC',"
                         + " 'HH24:MI:SS.US') FROM deliveries ORDER BY id")) {
                List<String> kept = new ArrayList<>();
                while (rows.next()) {
                    kept.add(rows.getString(1).substring(35) + " " + rows.getObject(2) + " " + rows.getString(3));
                }
                assertEquals(List.of("1 2 09:30:01.000000", "2 4 09:30:02.500000", "3 null null"), kept);
            }
        } finally {
            FileTrees.delete(directory);
        }
    }
}

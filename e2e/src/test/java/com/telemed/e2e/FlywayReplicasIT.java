package com.telemed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 21, "Flyway runs at start-up and is safe when several replicas start together": three
 * requests-service replicas (the service with the most migrations, 21) are started at once on an
 * empty database of their own, as a new deployment with three replicas starts. Every one comes up
 * ready, and the schema was migrated once: {@code flyway_schema_history} holds exactly the rows the
 * platform's own requests database holds (each version once, same script and checksum, all
 * successful), and the replicas' logs say they applied 21 migrations together (Flyway locks per
 * migration, so two replicas may share them), each replica reporting once: migrations applied, or
 * the schema up to date. Flyway serialises the replicas with a PostgreSQL advisory lock; without
 * it, two replicas would run {@code V1} together and one would fail its start (a relation that
 * already exists), or both would record it.
 *
 * <p>On the platform the test JVM shares: the replicas use their own database, call nobody and
 * consume nothing (requests-service has no consumer), and are stopped at the end.
 */
@ExtendWith(RunningPlatform.class)
class FlywayReplicasIT {

    private static final int REPLICAS = 3;
    private static final String HISTORY = "SELECT installed_rank, version, description, type, script, checksum, success"
            + " FROM flyway_schema_history ORDER BY installed_rank";
    private static final Pattern APPLIED = Pattern.compile("Successfully applied (\\d+) migrations?");
    private static final String UP_TO_DATE = "is up to date. No migration necessary";

    @Test
    void replicasStartedTogetherOnAnEmptyDatabaseMigrateItOnce(RunningPlatform.Handle handle) throws Exception {
        PostgresServer postgres = handle.infrastructure().postgres();
        Platform platform = handle.platform();
        String database = "requests_replicas_" + HexFormat.of().formatHex(randomBytes());
        postgres.ensureDatabase(database);
        String jdbcUrl = postgres.jdbcUrl(database);
        assertEquals(0, count(postgres, jdbcUrl, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), "an empty database");

        List<URI> replicas = platform.startReplicas(PlatformService.REQUESTS, REPLICAS,
                Map.of("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl));
        try {
            List<String> expected = history(postgres, postgres.jdbcUrl(PlatformService.REQUESTS.database()));
            assertEquals(migrationFiles(), expected.size(), "requests-service's migrations: " + expected);
            assertEquals(expected, history(postgres, jdbcUrl));

            // Flyway takes its lock per migration, so replicas may share the work: together they applied
            // each migration once, and every replica either applied some or found the schema up to date.
            int applied = 0;
            for (URI replica : replicas) {
                String log = Files.readString(platform.replicaLog(replica), StandardCharsets.UTF_8);
                Matcher matcher = APPLIED.matcher(log);
                int reports = 0;
                while (matcher.find()) {
                    applied += Integer.parseInt(matcher.group(1));
                    reports++;
                }
                reports += occurrences(log, UP_TO_DATE);
                assertEquals(1, reports, "Flyway's reports in " + platform.replicaLog(replica));
            }
            assertEquals(expected.size(), applied, "migrations applied by the replicas together");
        } finally {
            for (URI replica : replicas) {
                platform.stopReplica(replica);
            }
        }
    }

    /** The history rows as text, in installed order. */
    private static List<String> history(PostgresServer postgres, String jdbcUrl) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, postgres.username(), postgres.password());
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(HISTORY)) {
            while (result.next()) {
                rows.add(result.getInt(1) + " " + result.getString(2) + " " + result.getString(3) + " " + result.getString(4)
                        + " " + result.getString(5) + " " + result.getObject(6) + " " + result.getBoolean(7));
            }
        }
        return rows;
    }

    private static long count(PostgresServer postgres, String jdbcUrl, String query) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, postgres.username(), postgres.password());
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(query)) {
            assertTrue(result.next());
            return result.getLong(1);
        }
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[6];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    /** How many versioned migrations requests-service has in its sources (V<n>__*.sql): every one is in the history. */
    private static int migrationFiles() throws IOException {
        try (Stream<Path> files = Files.list(RunningPlatform.projectRoot()
                .resolve("requests-service/src/main/resources/db/migration"))) {
            return (int) files.filter(file -> file.getFileName().toString().matches("V\\d+__.+\\.sql")).count();
        }
    }
}

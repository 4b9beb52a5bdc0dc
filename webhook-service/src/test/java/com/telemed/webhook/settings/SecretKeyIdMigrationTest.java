package com.telemed.webhook.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Migration V4 on a database the previous release wrote (a database of its own on the test JVM's shared
 * PostgreSQL): its secrets (one key, no id) get the id
 * {@code legacy}, which the old single setting still names, so the development profiles' keys (and
 * a deployment that keeps its {@code WEBHOOK_SECRET_ENCRYPTION_KEY}) read them.
 */
class SecretKeyIdMigrationTest {

    @Test
    void secretsStoredBeforeKeyIdsAreTheLegacyKeys() throws Exception {
        PostgresServer postgres = Infrastructure.shared().postgres();
        String database = "webhook_key_ids_" + UUID.randomUUID().toString().replace("-", "");
        postgres.ensureDatabase(database);
        String url = postgres.jdbcUrl(database);
        try {
            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").target("3").load().migrate();

            // As the release before key ids stored it: the development key was the committed default.
            SecretCipher.Sealed old = new SecretCipher(SecretKeys.parse(Optional.empty(), Optional.of(SecretKeys.DEVELOPMENT_KEY)))
                    .encrypt("partner-1", "e".repeat(64));
            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                 PreparedStatement insert = connection.prepareStatement("INSERT INTO webhook_settings"
                         + " (partner_id, url, secret_encrypted, created_at, updated_at) VALUES (?, ?, ?, now(), now())")) {
                insert.setString(1, "partner-1");
                insert.setString(2, "https://hooks.partner.example/x");
                insert.setBytes(3, old.bytes());
                insert.executeUpdate();
                insert.setString(1, "partner-2");
                insert.setString(2, null);
                insert.setBytes(3, null);
                insert.executeUpdate();
            }

            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").load().migrate();

            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password())) {
                try (PreparedStatement select = connection.prepareStatement(
                        "SELECT partner_id, secret_key_id, secret_encrypted FROM webhook_settings ORDER BY partner_id");
                     ResultSet rows = select.executeQuery()) {
                    rows.next();
                    assertEquals("legacy", rows.getString(2));
                    // The development profiles' configuration: "local" first, the old single setting as "legacy".
                    SecretCipher development = new SecretCipher(SecretKeys.parse(
                            Optional.of(List.of("local:" + SecretKeys.DEVELOPMENT_KEY)), Optional.of(SecretKeys.DEVELOPMENT_KEY)));
                    assertEquals("e".repeat(64), development.decrypt("partner-1", rows.getString(2), rows.getBytes(3)));
                    rows.next();
                    assertEquals("partner-2", rows.getString(1));
                    assertEquals(null, rows.getString(2));
                }
                // Both or neither.
                assertThrows(SQLException.class, () -> connection.createStatement().executeUpdate(
                        "UPDATE webhook_settings SET secret_key_id = NULL WHERE partner_id = 'partner-1'"));
            }
        } finally {
            try (Connection admin = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password())) {
                admin.createStatement().executeUpdate("DROP DATABASE IF EXISTS " + database);
            }
        }
    }
}

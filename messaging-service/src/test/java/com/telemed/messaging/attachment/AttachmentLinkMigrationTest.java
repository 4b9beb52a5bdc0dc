package com.telemed.messaging.attachment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Migration V4 (issue #38) on a database the previous release wrote, on a database of its own on the
 * test JVM's shared PostgreSQL: each stored link token becomes its SHA-256 ({@code legacy_token_hash},
 * what a download of the old link looks up, AttachmentTest), and the token column is gone.
 */
class AttachmentLinkMigrationTest {

    @Test
    void storedTokensBecomeTheirHashesAndTheTokenColumnGoes() throws Exception {
        PostgresServer postgres = Infrastructure.shared().postgres();
        String database = "messaging_links_" + UUID.randomUUID().toString().replace("-", "");
        postgres.ensureDatabase(database);
        String url = postgres.jdbcUrl(database);
        try {
            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").target("3").load().migrate();
            UUID conversation = UUID.randomUUID();
            String first = "Q0hBTkdFRC1CRUZPUkUtVEhFLU1JR1JBVElPTi0xMjM";
            String second = "c2Vjb25kLWxpbmstZnJvbS10aGUtb2xkLXJlbGVhc2U";
            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password())) {
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO conversations (id, partner_id, member_id,"
                        + " member_name, member_email, prescriber_id, prescriber_name, prescriber_email, last_message_at,"
                        + " last_message_preview, last_message_sender_id, unread_by_member, unread_by_prescriber, created_at, updated_at)"
                        + " VALUES (?, 'p', ?, 'm', 'm@example.com', ?, 'd', 'd@example.com', now(), '', '', 0, 0, now(), now())")) {
                    insert.setObject(1, conversation);
                    insert.setObject(2, UUID.randomUUID());
                    insert.setObject(3, UUID.randomUUID());
                    insert.executeUpdate();
                }
                for (String token : List.of(first, second)) {
                    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO attachments (id, token, partner_id,"
                            + " conversation_id, file_id, file_name, content_type, size_bytes, created_at)"
                            + " VALUES (?, ?, 'p', ?, ?, 'a.pdf', 'application/pdf', 1, now())")) {
                        insert.setObject(1, UUID.randomUUID());
                        insert.setString(2, token);
                        insert.setObject(3, conversation);
                        insert.setObject(4, UUID.randomUUID());
                        insert.executeUpdate();
                    }
                }
            }

            Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                    .locations("classpath:db/migration").load().migrate();

            try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password())) {
                assertEquals(List.of("id", "partner_id", "conversation_id", "file_id", "file_name", "content_type", "size_bytes",
                        "created_at", "legacy_token_hash"), strings(connection,
                        "SELECT column_name FROM information_schema.columns WHERE table_name = 'attachments' ORDER BY ordinal_position"));
                List<byte[]> hashes = new ArrayList<>();
                try (ResultSet rows = connection.createStatement().executeQuery(
                        "SELECT legacy_token_hash FROM attachments ORDER BY legacy_token_hash")) {
                    while (rows.next()) {
                        hashes.add(rows.getBytes(1));
                    }
                }
                List<byte[]> expected = new ArrayList<>(List.of(AttachmentTest.sha256(utf8(first)), AttachmentTest.sha256(utf8(second))));
                expected.sort(java.util.Arrays::compareUnsigned);
                assertEquals(2, hashes.size());
                assertArrayEquals(expected.get(0), hashes.get(0));
                assertArrayEquals(expected.get(1), hashes.get(1));
                // Attachments stored from now on have none: several rows without one are allowed.
                for (int i = 0; i < 2; i++) {
                    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO attachments (id, partner_id,"
                            + " conversation_id, file_id, file_name, content_type, size_bytes, created_at)"
                            + " VALUES (?, 'p', ?, ?, 'b.pdf', 'application/pdf', 1, now())")) {
                        insert.setObject(1, UUID.randomUUID());
                        insert.setObject(2, conversation);
                        insert.setObject(3, UUID.randomUUID());
                        insert.executeUpdate();
                    }
                }
            }
        } finally {
            try (Connection admin = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password())) {
                admin.createStatement().executeUpdate("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    private static List<String> strings(Connection connection, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rows = connection.createStatement().executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

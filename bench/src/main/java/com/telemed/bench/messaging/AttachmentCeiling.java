package com.telemed.bench.messaging;

import com.telemed.testkit.infra.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ceiling of an upload: the same file straight into the same PostgreSQL server, one
 * {@code INSERT INTO scratch_attachments (bytes) VALUES (?)} of the whole 10 MB {@code bytea} per call
 * over JDBC (autocommit, prepared, the bytes bound with {@code setBytes} as Hibernate binds the
 * service's chunks), {@code clients} connections each inserting its next file when the last is in,
 * for a fixed time. The scratch table lives in the scratch database {@code bench_scratch} (pgbench's
 * too) and is dropped after.
 */
final class AttachmentCeiling {

    private AttachmentCeiling() {
    }

    static Transfers run(PostgresServer postgres, String name, int clients, Duration duration) throws Exception {
        postgres.ensureDatabase("bench_scratch");
        String url = postgres.jdbcUrl("bench_scratch");
        try (Connection db = DriverManager.getConnection(url, postgres.username(), postgres.password());
             Statement st = db.createStatement()) {
            st.execute("DROP TABLE IF EXISTS scratch_attachments");
            st.execute("CREATE TABLE scratch_attachments (id bigserial PRIMARY KEY, bytes bytea NOT NULL)");
        }
        try {
            return inserts(postgres, url, name, clients, duration);
        } finally {
            try (Connection db = DriverManager.getConnection(url, postgres.username(), postgres.password());
                 Statement st = db.createStatement()) {
                st.execute("DROP TABLE scratch_attachments");
            }
        }
    }

    private static Transfers inserts(PostgresServer postgres, String url, String name, int clients, Duration duration)
            throws Exception {
        Transfers.Tally inserts = new Transfers.Tally();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                connections.add(DriverManager.getConnection(url, postgres.username(), postgres.password()));
            }
            long began = System.nanoTime();
            long end = began + duration.toNanos();
            List<Thread> threads = new ArrayList<>();
            for (Connection connection : connections) {
                Thread thread = new Thread(() -> loop(connection, end, inserts), "ceiling-" + threads.size());
                thread.start();
                threads.add(thread);
            }
            for (Thread thread : threads) {
                thread.join();
            }
            return inserts.result(name, (System.nanoTime() - began) / 1e9, AttachmentRoundTrips.FILE_BYTES);
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    private static void loop(Connection connection, long end, Transfers.Tally inserts) {
        byte[] file = new byte[AttachmentRoundTrips.FILE_BYTES];
        ThreadLocalRandom.current().nextBytes(file);
        byte[] stamp = new byte[16];
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO scratch_attachments (bytes) VALUES (?)")) {
            while (System.nanoTime() < end) {
                ThreadLocalRandom.current().nextBytes(stamp);
                System.arraycopy(stamp, 0, file, 0, stamp.length);
                long started = System.nanoTime();
                try {
                    insert.setBytes(1, file);
                    insert.executeUpdate();
                    inserts.succeeded(started);
                } catch (SQLException e) {
                    inserts.failed(started, "INSERT " + e.getClass().getSimpleName() + " " + e.getSQLState());
                }
            }
        } catch (SQLException e) {
            inserts.failed(System.nanoTime(), "prepare " + e.getClass().getSimpleName() + " " + e.getSQLState());
        }
    }
}

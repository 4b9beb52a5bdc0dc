package com.telemed.webhook.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pages without a type filter read their deliveries as one range of the partner's by {@code created_at}
 * ({@link EventReads#pageSql}); whatever the deliveries' timestamps, every page shows for each event what the read of that
 * one event shows ({@link EventReads#ONE}, a probe by id): events sharing a timestamp (one intake batch), an event
 * without a delivery, deliveries stamped later or earlier than their event (releases before intake's one statement),
 * one recorded before V8 (its newest attempt read from the attempts), one never attempted, and another partner's
 * deliveries of the same instants. Every limit from 1 to past the end, from the start and after every event. On a
 * database of its own on the test JVM's shared PostgreSQL.
 */
class EventPagesTest {

    private static final String PARTNER = "partner-pages";
    private static final String OTHER = "partner-other";
    private static final Instant BATCH = Instant.parse("2026-11-21T09:30:00Z");
    private static final Instant NEXT = Instant.parse("2026-11-21T09:30:00.250Z");
    private static final Instant LAST = Instant.parse("2026-11-21T09:31:00Z");

    private static PostgresServer postgres;
    private static String database;
    private static AgroalDataSource dataSource;
    private static EventReads reads;
    private static final List<UUID> EVENTS = new ArrayList<>();

    @BeforeAll
    static void load() throws Exception {
        postgres = Infrastructure.shared().postgres();
        database = "webhook_event_pages_" + UUID.randomUUID().toString().replace("-", "");
        postgres.ensureDatabase(database);
        String url = postgres.jdbcUrl(database);
        Flyway.configure().dataSource(url, postgres.username(), postgres.password()).locations("classpath:db/migration").load().migrate();
        dataSource = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.maxSize(2).connectionFactoryConfiguration(factory -> factory.jdbcUrl(url)
                        .principal(new NamePrincipal(postgres.username())).credential(new SimplePassword(postgres.password())))));
        reads = new EventReads(dataSource);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            // seq: the event's timestamp, then its delivery (none; created_at; status, attempts).
            event(statement, PARTNER, 1, BATCH);
            delivery(statement, PARTNER, 1, BATCH, "delivered", 1);
            event(statement, PARTNER, 2, BATCH); // no URL when it came: no delivery
            event(statement, PARTNER, 3, BATCH);
            delivery(statement, PARTNER, 3, BATCH.plusMillis(5), "failed", 3); // stamped after its event
            event(statement, PARTNER, 4, BATCH);
            delivery(statement, PARTNER, 4, BATCH, "retrying", 2); // recorded before V8, below
            event(statement, PARTNER, 5, BATCH);
            delivery(statement, PARTNER, 5, BATCH, "retrying", 0); // never attempted
            event(statement, PARTNER, 6, NEXT);
            delivery(statement, PARTNER, 6, NEXT.minusSeconds(60), "delivered", 1); // stamped before the page's first event
            for (int seq = 7; seq <= 12; seq++) {
                event(statement, PARTNER, seq, seq < 10 ? NEXT : LAST);
                delivery(statement, PARTNER, seq, seq < 10 ? NEXT : LAST, seq % 2 == 0 ? "delivered" : "failed", seq % 3 + 1);
            }
            // Another partner's events and deliveries of the same instants.
            for (int seq = 1; seq <= 4; seq++) {
                event(statement, OTHER, seq, seq < 3 ? BATCH : NEXT);
                delivery(statement, OTHER, seq, seq < 3 ? BATCH : NEXT, "failed", 2);
            }
            // Attempts (V8's trigger keeps the newest on each delivery), at one minute after the event, a second apart.
            statement.executeUpdate("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms)"
                    + " SELECT d.id, d.created_at + interval '1 minute' + n * interval '1 second', 500, NULL, 3"
                    + " FROM deliveries d, generate_series(1, d.attempt_count) AS n ORDER BY d.id, n");
            // Recorded before V8: the attempts, no newest on the row.
            statement.executeUpdate("UPDATE deliveries SET last_attempt_id = NULL, last_attempt_at = NULL WHERE id = '" + id(PARTNER, 4) + "'");
        }
    }

    @AfterAll
    static void drop() throws Exception {
        if (dataSource != null) {
            dataSource.close();
        }
        try (Connection admin = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password())) {
            admin.createStatement().executeUpdate("DROP DATABASE IF EXISTS " + database);
        }
    }

    @Test
    void everyPageShowsEachEventsDeliveryAsItsOwnReadDoes() {
        List<EventsViews.Event> one = new ArrayList<>();
        for (UUID id : EVENTS) {
            one.add(reads.one(PARTNER, id.toString()).view());
        }
        // The reads the pages are held to, themselves held to what was stored.
        assertEquals(new EventsViews.Delivery("delivered", 1, Instant.parse("2026-11-21T09:31:01Z")), one.get(0).delivery());
        assertEquals(new EventsViews.Delivery("not_sent", 0, null), one.get(1).delivery());
        assertEquals(new EventsViews.Delivery("failed", 3, Instant.parse("2026-11-21T09:31:03.005Z")), one.get(2).delivery());
        assertEquals(new EventsViews.Delivery("retrying", 2, Instant.parse("2026-11-21T09:31:02Z")), one.get(3).delivery(),
                "recorded before V8: the newest attempt read from the attempts");
        assertEquals(new EventsViews.Delivery("retrying", 0, null), one.get(4).delivery());
        assertEquals(new EventsViews.Delivery("delivered", 1, Instant.parse("2026-11-21T09:30:01.250Z")), one.get(5).delivery());
        assertEquals(new EventsViews.Delivery("failed", 3, Instant.parse("2026-11-21T09:32:03Z")), one.get(10).delivery());
        for (int limit = 1; limit <= EVENTS.size() + 1; limit++) {
            for (int after = -1; after < EVENTS.size(); after++) {
                String cursor = after < 0 ? null : EVENTS.get(after).toString();
                EventsViews.Page page = reads.page(PARTNER, cursor, null, limit);
                int from = after + 1;
                int to = Math.min(EVENTS.size(), from + limit);
                List<EventsViews.Event> expected = one.subList(from, to);
                String asked = "limit " + limit + " after " + (after + 1);
                assertEquals(expected, page.events(), asked);
                assertEquals(to < EVENTS.size(), page.hasMore(), asked);
                assertEquals(expected.isEmpty() ? cursor : expected.get(expected.size() - 1).id().toString(), page.nextCursor(), asked);
            }
        }
    }

    private static UUID id(String partner, int seq) {
        return UUID.nameUUIDFromBytes((partner + ":" + seq).getBytes(StandardCharsets.UTF_8));
    }

    private static void event(Statement statement, String partner, int seq, Instant at) throws Exception {
        UUID id = id(partner, seq);
        statement.executeUpdate("INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at) VALUES ('" + id + "', '"
                + partner + "', " + seq + ", '" + partner + ":" + seq + "', 'item.approved', '{\"seq\":" + seq + "}', '" + at + "')");
        if (partner.equals(PARTNER)) {
            EVENTS.add(id);
        }
    }

    private static void delivery(Statement statement, String partner, int seq, Instant at, String status, int attempts)
            throws Exception {
        statement.executeUpdate("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                + " attempt_count, round_attempts, created_at, updated_at) VALUES ('" + id(partner, seq) + "', '" + partner + "', '"
                + partner + ":" + seq + "', 'item.approved', '{}', '1763717400', 'sha256=00', '" + status + "', " + attempts + ", "
                + attempts + ", '" + at + "', '" + at + "')");
    }
}

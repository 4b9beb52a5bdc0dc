package com.telemed.common.outbox;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The outbox gauges against real PostgreSQL. The relay is kept off the rows by holding its advisory
 * lock ({@link OutboxRelay#LOCK_ID}), as another replica relaying would: the rows stay pending.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxMetricsTest {

    private static final String TOPIC = "outbox-metrics-test";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MeterRegistry registry;

    @Test
    void theServiceExportsBothGauges() {
        assertNotNull(registry.find("outbox.backlog").gauge());
        assertNotNull(registry.find("outbox.oldest.age.seconds").gauge());
    }

    @Test
    void backlogAndOldestAgeAreReadAtMostOncePerRefreshAndZeroWhenEmpty() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> total() == 0);
        AtomicLong clock = new AtomicLong();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        OutboxMetrics metrics = new OutboxMetrics(dataSource, meters, clock::get);
        assertEquals(0.0, meters.get("outbox.backlog").gauge().value());
        assertEquals(0.0, meters.get("outbox.oldest.age.seconds").gauge().value());

        try (Connection relayLock = dataSource.getConnection()) {
            relayLock.setAutoCommit(false);
            try (PreparedStatement lock = relayLock.prepareStatement("select pg_advisory_xact_lock(?)")) {
                lock.setLong(1, OutboxRelay.LOCK_ID);
                lock.execute();
            }
            try {
                insert(Duration.ofSeconds(90));
                insert(Duration.ofSeconds(10));
                insert(Duration.ZERO);
                // Cached: nothing read until the refresh interval has passed.
                assertEquals(0.0, meters.get("outbox.backlog").gauge().value());
                clock.addAndGet(OutboxMetrics.REFRESH.toNanos());
                assertEquals(3.0, meters.get("outbox.backlog").gauge().value());
                double age = meters.get("outbox.oldest.age.seconds").gauge().value();
                assertTrue(age >= 90 && age < 120, "oldest age " + age);

                insert(Duration.ZERO);
                clock.addAndGet(OutboxMetrics.REFRESH.toNanos() - 1);
                assertEquals(3.0, meters.get("outbox.backlog").gauge().value());
                clock.addAndGet(1);
                assertEquals(4.0, meters.get("outbox.backlog").gauge().value());
            } finally {
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement delete = connection.prepareStatement("delete from outbox_events where topic = ?")) {
                    delete.setString(1, TOPIC);
                    delete.executeUpdate();
                }
                relayLock.rollback();
            }
        }
        clock.addAndGet(OutboxMetrics.REFRESH.toNanos());
        assertEquals(0.0, meters.get("outbox.backlog").gauge().value());
        assertEquals(0.0, meters.get("outbox.oldest.age.seconds").gauge().value());
    }

    private void insert(Duration age) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("insert into outbox_events"
                     + " (event_id, topic, message_key, payload, created_at)"
                     + " values (?, ?, 'k', cast('{}' as json), now() - make_interval(secs => ?))")) {
            insert.setObject(1, UUID.randomUUID());
            insert.setString(2, TOPIC);
            insert.setDouble(3, age.toSeconds());
            insert.executeUpdate();
        }
    }

    private long total() throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement count = connection.prepareStatement("select count(*) from outbox_events");
             ResultSet result = count.executeQuery()) {
            result.next();
            return result.getLong(1);
        }
    }
}

package com.telemed.common.outbox;

import com.telemed.common.concurrent.Ticker;
import com.telemed.common.error.FailureLog;
import com.telemed.common.kafka.KafkaConnection;
import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Moves committed outbox rows to Kafka, oldest first, and deletes them once Kafka has
 * acknowledged them (acks=all). Each batch runs in one JDBC transaction that first takes
 * {@code pg_try_advisory_xact_lock(LOCK_ID)}: with several replicas only one relays at a time,
 * which is what keeps one key's events in order; the others skip the tick. Delivery is at least
 * once (a crash between the ack and the commit sends the batch again), so consumers deduplicate
 * on the envelope id.
 *
 * <p>The relay runs on a thread of its own rather than through quarkus-scheduler (which checks
 * its triggers once a second). It is woken by {@link Outbox} when a transaction that recorded
 * events commits on this replica, and polls every {@code platform.outbox.poll-interval} besides:
 * for rows of other replicas whose relay skipped them (lock held), and for rows left after a
 * Kafka or database failure.
 */
@ApplicationScoped
@IfBuildProperty(name = "platform.outbox.enabled", stringValue = "true")
public class OutboxRelay {

    /** "outbox" in ASCII. Advisory locks are per database, and each service has its own. */
    public static final long LOCK_ID = 0x6F7574626F78L;

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    private static final String LOCK = "select pg_try_advisory_xact_lock(?)";
    private static final String PENDING =
            "select id, topic, message_key, payload::text, traceparent from outbox_events order by id limit ?";
    // Exact ids, not "id <= last": a lower id may belong to a transaction that commits later.
    private static final String DELETE = "delete from outbox_events where id = any(?)";

    private final AgroalDataSource dataSource;
    private final OutboxConfig config;
    private final RelayProducer producer;
    private final FailureLog failures = new FailureLog(LOG, "Outbox relay");
    private final Ticker ticker;

    public OutboxRelay(AgroalDataSource dataSource, OutboxConfig config,
                       @Identifier(KafkaConnection.DEFAULT_BROKER) Map<String, Object> kafka) {
        this.dataSource = dataSource;
        this.config = config;
        this.producer = new RelayProducer(kafka);
        this.ticker = new Ticker("outbox-relay", config.pollInterval(), this::poll, failures::failing);
    }

    /** After Flyway has migrated (it runs before StartupEvent), so the table exists. */
    void start(@Observes StartupEvent started) {
        ticker.start();
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        ticker.stop(Duration.ofSeconds(10));
        producer.close();
    }

    /** Asks for a tick once the caller's transaction commits: it recorded events. */
    public void wakeAfterCommit(TransactionSynchronizationRegistry transactions) {
        ticker.wakeAfterCommit(transactions);
    }

    /** Drains full batches back to back, so a burst does not wait one poll interval per batch. */
    private void poll() {
        try {
            while (relayBatch() == config.batchSize() && !Thread.currentThread().isInterrupted()) {
                // Keep going: more rows are waiting.
            }
        } catch (RuntimeException e) {
            // Log the failure's shape and keep polling: the rows stay for the next tick.
            failures.failed("relay", "Outbox relay tick failed", e);
        }
    }

    /**
     * Publishes one batch. Safe to call from several threads or replicas at once.
     *
     * @return the rows published and deleted; 0 when there was nothing to do, another relay held
     * the lock, or Kafka or the database failed (the rows stay and are retried next tick)
     */
    public int relayBatch() {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                int published = relayBatch(connection);
                connection.commit();
                failures.recovered("database");
                return published;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            // SQL messages can quote row values; the class names are enough to diagnose.
            failures.failed("database", "Outbox relay cannot use the database", e);
            return 0;
        }
    }

    private int relayBatch(Connection connection) throws SQLException {
        if (!tryLock(connection)) {
            return 0;
        }
        List<OutboxRow> rows = pending(connection);
        if (rows.isEmpty()) {
            return 0;
        }
        RelayProducer.Outcome outcome = producer.send(rows);
        if (outcome.failure() != null) {
            OutboxRow stuck = rows.get(outcome.acknowledged());
            failures.failed("kafka", "Outbox relay cannot publish row " + stuck.id() + " (" + rows.size()
                    + " in batch, " + outcome.acknowledged() + " acknowledged)", outcome.failure());
        } else {
            failures.recovered("kafka");
        }
        delete(connection, rows.subList(0, outcome.acknowledged()));
        return outcome.acknowledged();
    }

    private static boolean tryLock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(LOCK)) {
            lock.setLong(1, LOCK_ID);
            try (ResultSet result = lock.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    private List<OutboxRow> pending(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(PENDING)) {
            select.setInt(1, config.batchSize());
            try (ResultSet result = select.executeQuery()) {
                List<OutboxRow> rows = new ArrayList<>();
                while (result.next()) {
                    rows.add(new OutboxRow(result.getLong(1), result.getString(2), result.getString(3), result.getString(4),
                            result.getString(5)));
                }
                return rows;
            }
        }
    }

    private static void delete(Connection connection, List<OutboxRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Array ids = connection.createArrayOf("bigint", rows.stream().map(OutboxRow::id).toArray());
        try (PreparedStatement delete = connection.prepareStatement(DELETE)) {
            delete.setArray(1, ids);
            delete.executeUpdate();
        } finally {
            ids.free();
        }
    }
}

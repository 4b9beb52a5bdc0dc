package com.telemed.requests.fulfilment;

import com.telemed.common.concurrent.Ticker;
import com.telemed.common.error.FailureLog;
import com.telemed.common.json.Timestamps;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Transmits the items that are due: automatic approvals (due at approval) and scheduled ones
 * (due at {@code pharmacySendAt}), and held items again once their retry time comes. Every replica
 * runs one; they share the work through row claims: a batch is claimed in one statement
 * ({@code FOR UPDATE SKIP LOCKED}, then a claim with a lease written on each row), so an item is
 * claimed by exactly one replica, and items a call or another replica has in flight are skipped.
 * The claimed items are transmitted by {@link Transmissions} on a small pool, outside any
 * transaction.
 *
 * <p>It ticks on a thread of its own (platform-commons' {@link Ticker}, as the outbox relay does):
 * woken when an approval that made an item due now commits on this replica (so an automatic
 * transmission follows its approval at once, never inside it), and every
 * {@code requests.fulfilment.poll-interval} besides.
 */
@ApplicationScoped
public class FulfilmentDispatcher {

    private static final Logger LOG = Logger.getLogger(FulfilmentDispatcher.class);

    private static final String CLAIM = """
            UPDATE line_items SET transmission_claim = ?, transmission_claimed_until = ?
            WHERE id IN (SELECT id FROM line_items
                         WHERE transmit_due_at <= ? AND NOT pharmacy_sent AND status IN ('approved', 'completed')
                           AND (transmission_claimed_until IS NULL OR transmission_claimed_until <= ?)
                         ORDER BY transmit_due_at
                         LIMIT ?
                         FOR UPDATE SKIP LOCKED)
            RETURNING id""";

    private final AgroalDataSource dataSource;
    private final Transmissions transmissions;
    private final FulfilmentConfig config;
    private final TransactionSynchronizationRegistry transactions;
    private final FailureLog failures = new FailureLog(LOG, "Fulfilment dispatcher");
    private final Ticker ticker;
    private ExecutorService pool;

    public FulfilmentDispatcher(AgroalDataSource dataSource, Transmissions transmissions, FulfilmentConfig config,
                                TransactionSynchronizationRegistry transactions) {
        this.dataSource = dataSource;
        this.transmissions = transmissions;
        this.config = config;
        this.transactions = transactions;
        this.ticker = new Ticker("fulfilment-dispatcher", config.pollInterval(), this::tick, failures::failing);
    }

    void start(@Observes StartupEvent started) {
        if (!config.dispatcherEnabled()) {
            return;
        }
        AtomicInteger threads = new AtomicInteger();
        pool = Executors.newFixedThreadPool(config.parallelism(), task -> {
            Thread thread = new Thread(task, "fulfilment-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        ticker.start();
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        ticker.stop(Duration.ofSeconds(10));
        if (pool != null) {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** In a transaction that made an item due now: wakes the dispatcher once it commits. */
    void wakeOnCommit() {
        ticker.wakeAfterCommit(transactions);
    }

    private void tick() {
        try {
            dispatchDue();
            failures.recovered("database");
        } catch (RuntimeException e) {
            failures.failed("database", "Fulfilment dispatch failed", e);
        }
    }

    /** Claims and transmits due items, batch after batch, until fewer than a batch are due. */
    void dispatchDue() {
        List<UUID> claimed;
        do {
            UUID claim = UUID.randomUUID();
            claimed = claim(claim);
            List<CompletableFuture<Void>> running = new ArrayList<>();
            for (UUID itemId : claimed) {
                running.add(CompletableFuture.runAsync(() -> transmitOne(itemId, claim), pool));
            }
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
        } while (claimed.size() == config.batchSize() && ticker.running());
    }

    private void transmitOne(UUID itemId, UUID claim) {
        try {
            transmissions.transmitDue(itemId, claim);
        } catch (RuntimeException e) {
            // The claim lapses with its lease and the item is tried again; the message may quote values.
            LOG.errorf("Transmission of item %s failed unexpectedly (%s); retried after the claim lease",
                    itemId, e.getClass().getName());
        }
    }

    private List<UUID> claim(UUID claim) {
        Instant now = Timestamps.now();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(CLAIM)) {
            statement.setObject(1, claim);
            statement.setObject(2, OffsetDateTime.ofInstant(now.plus(config.claimLease()), ZoneOffset.UTC));
            statement.setObject(3, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
            statement.setObject(4, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
            statement.setInt(5, config.batchSize());
            List<UUID> ids = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getObject(1, UUID.class));
                }
            }
            return ids;
        } catch (SQLException e) {
            throw new IllegalStateException("claiming due items failed (SQL state " + e.getSQLState() + ")", e);
        }
    }
}

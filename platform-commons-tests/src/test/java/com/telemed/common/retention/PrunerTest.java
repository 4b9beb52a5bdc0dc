package com.telemed.common.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The retention mechanism on the real database: which rows a prune deletes by a clock the test
 * moves, in batches, and replicas pruning at once. Each test prunes rows of a run of its own.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class PrunerTest {

    /** Where the moved clocks start. */
    private static final Instant NOW = Instant.parse("2026-11-21T09:30:00Z");
    private static final Duration DAY = Duration.ofDays(1);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RetentionJob job;

    @Test
    void oldRowsGoOldestFirstInBatchesAndRowsInsideTheWindowStayUntilTheClockPassesThem() throws SQLException {
        UUID run = UUID.randomUUID();
        RetentionRule rule = ProbeRetention.rule(run);
        // Ten rows past the 30 days, the i-th i hours older than 31 days: the oldest have the highest ids.
        List<Long> old = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            old.addAll(insert(run, NOW.minus(DAY.multipliedBy(31)).minus(Duration.ofHours(i)), "done", 1));
        }
        List<Long> atTheEdge = insert(run, NOW.minus(DAY.multipliedBy(30)), "done", 1);
        List<Long> inside = insert(run, NOW.minus(DAY.multipliedBy(29)), "done", 3);
        List<Long> held = insert(run, NOW.minus(DAY.multipliedBy(400)), "hold", 2);
        MovedClock clock = new MovedClock(NOW);
        Pruner pruner = new Pruner(dataSource, List.of(rule), 4, clock, new SimpleMeterRegistry());

        // One batch: the four oldest, nothing else.
        assertEquals(4, pruner.deleteBatch(rule, NOW.minus(DAY.multipliedBy(30))));
        assertEquals(concat(old.subList(0, 6), atTheEdge, inside, held), ids(run));

        // The rest of the old rows, four then two; exactly 30 days old is still kept.
        assertEquals(new Pruner.Pruned("retention_probe", 6, 2, false), pruner.prune(rule, () -> true));
        assertEquals(concat(atTheEdge, inside, held), ids(run));
        assertEquals(new Pruner.Pruned("retention_probe", 0, 0, false), pruner.prune(rule, () -> true));

        // Two days on, the window's rows are 31 and 32 days old: one full batch, then an empty one.
        clock.advance(DAY.multipliedBy(2));
        assertEquals(new Pruner.Pruned("retention_probe", 4, 1, false), pruner.prune(rule, () -> true));
        assertEquals(held, ids(run));
    }

    @Test
    void twoPrunersAtOnceDeleteEachRowOnceAndNeitherFails() throws Exception {
        UUID run = UUID.randomUUID();
        RetentionRule rule = ProbeRetention.rule(run);
        insert(run, NOW.minus(DAY.multipliedBy(31)), "done", 300);
        List<Long> inside = insert(run, NOW.minus(DAY.multipliedBy(29)), "done", 5);

        ExecutorService replicas = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Long>> deleted = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                // Each replica has a pruner of its own; small batches, so the two meet often.
                Pruner pruner = new Pruner(dataSource, List.of(rule), 7, Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry());
                deleted.add(replicas.submit(() -> {
                    start.await();
                    long total = 0;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (ids(run).size() > inside.size() && System.nanoTime() < deadline) {
                        total += pruner.prune(rule, () -> true).rows();
                    }
                    return total;
                }));
            }
            start.countDown();
            long total = 0;
            for (Future<Long> replica : deleted) {
                total += replica.get(90, TimeUnit.SECONDS);  // neither failed
            }
            assertEquals(300, total, "each row deleted once");
        } finally {
            replicas.shutdownNow();
        }
        assertEquals(inside, ids(run));
    }

    @Test
    void aPrunerLockedOutOfATableLeavesItToTheReplicaPruningIt() throws SQLException {
        UUID run = UUID.randomUUID();
        RetentionRule rule = ProbeRetention.rule(run);
        List<Long> old = insert(run, NOW.minus(DAY.multipliedBy(31)), "done", 3);
        Pruner pruner = new Pruner(dataSource, List.of(rule), 100, Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry());
        try (Connection otherReplica = dataSource.getConnection()) {
            otherReplica.setAutoCommit(false);
            try (PreparedStatement lock = otherReplica.prepareStatement("select pg_try_advisory_xact_lock(?, ?)")) {
                lock.setInt(1, Pruner.LOCK_CLASS);
                lock.setInt(2, "retention_probe".hashCode());
                try (ResultSet result = lock.executeQuery()) {
                    result.next();
                    assertTrue(result.getBoolean(1));
                }
            }
            assertEquals(new Pruner.Pruned("retention_probe", 0, 0, true), pruner.prune(rule, () -> true));
            assertEquals(old, ids(run));
            otherReplica.rollback();  // the other replica's batch ends, and its lock with it
        }
        assertEquals(new Pruner.Pruned("retention_probe", 3, 1, false), pruner.prune(rule, () -> true));
        assertEquals(List.of(), ids(run));
    }

    @Test
    void theServicesJobPrunesItsRulesByItsClockAndCountsTheRows() throws SQLException {
        Instant now = Instant.now();
        insert(ProbeRetention.RUN, now.minus(DAY.multipliedBy(31)), "done", 2);
        List<Long> inside = insert(ProbeRetention.RUN, now.minus(DAY.multipliedBy(29)), "done", 1);
        double before = deletedCounter().count();

        assertEquals(List.of(new Pruner.Pruned("retention_probe", 2, 1, false)), job.prune());
        assertEquals(inside, ids(ProbeRetention.RUN));
        assertEquals(before + 2, deletedCounter().count());
        assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive() && t.getName().equals("retention")),
                "the job's thread runs");
    }

    private static Counter deletedCounter() {
        return Metrics.globalRegistry.get("retention.deleted.rows").tag("table", "retention_probe").counter();
    }

    private List<Long> insert(UUID run, Instant at, String state, int rows) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "insert into retention_probe (run, at, state) select ?::uuid, ?::timestamptz, ?::text from generate_series(1, ?) returning id")) {
            insert.setObject(1, run);
            insert.setObject(2, OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
            insert.setString(3, state);
            insert.setInt(4, rows);
            try (ResultSet result = insert.executeQuery()) {
                while (result.next()) {
                    ids.add(result.getLong(1));
                }
            }
        }
        ids.sort(null);
        return ids;
    }

    private List<Long> ids(UUID run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("select id from retention_probe where run = ? order by id")) {
            select.setObject(1, run);
            List<Long> ids = new ArrayList<>();
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    ids.add(result.getLong(1));
                }
            }
            return ids;
        }
    }

    @SafeVarargs
    private static List<Long> concat(List<Long>... parts) {
        return Stream.of(parts).flatMap(List::stream).sorted().toList();
    }
}

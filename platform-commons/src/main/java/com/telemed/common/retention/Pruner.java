package com.telemed.common.retention;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Deletes what {@link RetentionRule}s no longer keep, oldest first, in batches of
 * {@code batchSize} rows, each batch one short transaction. A batch first takes the table's
 * transaction-level advisory lock ({@code pg_try_advisory_xact_lock}); a pruner that does not get
 * it (another replica is pruning that table) leaves the table for this run, so replicas never
 * repeat each other's work and never wait for each other. The rows are picked
 * {@code FOR UPDATE SKIP LOCKED}: a row another transaction is changing is left for a later run
 * rather than waited for. "Old" is measured by {@code clock}, so a test moves time instead of
 * waiting for it.
 *
 * <p>Each table's deleted rows are counted in {@code retention_deleted_rows_total{table}}, and a
 * run that deleted some writes one line: the table, the count and the cutoff (never a row's content).
 */
public final class Pruner {

    /** The advisory lock's first key, "reta" in ASCII; the second is the table name's hash. */
    static final int LOCK_CLASS = 0x72657461;

    /** A batch that runs longer than this is cancelled (and its rows left for the next run). */
    private static final int BATCH_TIMEOUT_SECONDS = 60;

    private static final Logger LOG = Logger.getLogger(Pruner.class);

    /** What one table's run did. {@code lockedOut}: another pruner held the table, so this one stopped. */
    public record Pruned(String table, long rows, int batches, boolean lockedOut) {
    }

    private final DataSource dataSource;
    private final List<RetentionRule> rules;
    private final int batchSize;
    private final Clock clock;
    private final Map<String, Counter> deleted = new HashMap<>();

    public Pruner(DataSource dataSource, List<RetentionRule> rules, int batchSize, Clock clock, MeterRegistry registry) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("platform.retention.batch-size must be at least 1, not " + batchSize);
        }
        this.dataSource = dataSource;
        // By table name: runs and their lines in one order whatever order the beans came in.
        this.rules = rules.stream().sorted(Comparator.comparing(RetentionRule::table)).toList();
        this.batchSize = batchSize;
        this.clock = clock;
        for (RetentionRule rule : this.rules) {
            deleted.put(rule.table(), Counter.builder("retention.deleted.rows")
                    .description("Rows deleted because their retention had passed").tag("table", rule.table())
                    .register(registry));
        }
    }

    public List<RetentionRule> rules() {
        return rules;
    }

    /** Prunes every table in turn (by name) until nothing old is left or {@code going} turns false (stopping). */
    public List<Pruned> pruneAll(BooleanSupplier going) throws SQLException {
        List<Pruned> pruned = new ArrayList<>();
        for (RetentionRule rule : rules) {
            if (!going.getAsBoolean()) {
                break;
            }
            pruned.add(prune(rule, going));
        }
        return pruned;
    }

    /** Prunes one table: batch after batch while the last one was full. */
    public Pruned prune(RetentionRule rule, BooleanSupplier going) throws SQLException {
        Instant cutoff = clock.instant().minus(rule.keep());
        long rows = 0;
        int batches = 0;
        boolean lockedOut = false;
        try {
            while (going.getAsBoolean()) {
                int batch = deleteBatch(rule, cutoff);
                if (batch < 0) {
                    lockedOut = true;
                    break;
                }
                if (batch > 0) {
                    batches++;
                    rows += batch;
                }
                if (batch < batchSize) {
                    break;
                }
            }
        } finally {
            if (rows > 0) {
                deleted.get(rule.table()).increment(rows);
                LOG.infof("Retention: deleted %d rows of %s older than %s (%d batches)", rows, rule.table(), cutoff, batches);
            }
        }
        return new Pruned(rule.table(), rows, batches, lockedOut);
    }

    /**
     * One batch in one transaction: at most {@code batchSize} rows of the table older than
     * {@code cutoff}, oldest first.
     *
     * @return the rows deleted, or -1 when another pruner holds the table's lock (nothing done)
     */
    public int deleteBatch(RetentionRule rule, Instant cutoff) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                int rows = tryLock(connection, rule.table()) ? delete(connection, rule, cutoff) : -1;
                connection.commit();
                return rows;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    private static boolean tryLock(Connection connection, String table) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("select pg_try_advisory_xact_lock(?, ?)")) {
            lock.setInt(1, LOCK_CLASS);
            lock.setInt(2, table.hashCode());
            try (ResultSet result = lock.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    private int delete(Connection connection, RetentionRule rule, Instant cutoff) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(statement(rule))) {
            delete.setQueryTimeout(BATCH_TIMEOUT_SECONDS);
            delete.setObject(1, OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC));
            delete.setInt(2, batchSize);
            return delete.executeUpdate();
        }
    }

    /**
     * Native SQL: JPQL has no {@code LIMIT} in a subquery nor {@code SKIP LOCKED}; the names are the
     * rule's (checked plain names from code). The inner read is a range scan of the timestamp
     * column's index.
     */
    static String statement(RetentionRule rule) {
        String condition = rule.condition() == null ? "" : " and (" + rule.condition() + ")";
        return "delete from " + rule.table() + " where " + rule.keyColumn() + " in (select " + rule.keyColumn()
                + " from " + rule.table() + " where " + rule.timestampColumn() + " < ?" + condition
                + " order by " + rule.timestampColumn() + " limit ? for update skip locked)";
    }
}

package com.telemed.billing.ledger;

import com.telemed.billing.ledger.LedgerWrites.Tables;
import com.telemed.common.audit.AuditTrail;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A partner's ledger rebuilt beside the live one (V4), in short transactions, none of them around a
 * call to an owner (issue 38): the rebuild claims the partner, stages each page the owners answered
 * ({@link #stage}), then replaces the partner's live rows with what it staged ({@link #swap}), or
 * gives its claim up ({@link #release}). Until the swap commits, summaries read the live ledger as
 * it was; the consumers merge the events of a partner being rebuilt into both the live rows and the
 * staged ones ({@link #rebuilding}), so nothing they bring is lost by the swap.
 *
 * <p>One advisory lock of the ledger keeps the two apart without spanning any call: every consumer
 * transaction takes it shared before it reads the claims, and each of these transactions takes it
 * exclusively. So a claim waits for the consumer transactions under way (which read no claim), every
 * later one sees it, and no staging or swap interleaves with a consumer batch (their merges, which
 * take row locks in different orders, never wait on each other). The lock is a transaction's: it is
 * held for one short transaction and never across a call. Plain SQL: advisory locks, claims decided by
 * {@code ON CONFLICT}, and copies between tables are beyond JPQL.
 */
@ApplicationScoped
public class LedgerRebuilds {

    /** The rebuild's claim is gone: taken over by a later rebuild after it went stale. */
    public static final class ClaimLost extends RuntimeException {
        ClaimLost() {
            super("the rebuild's claim is gone", null, false, false);
        }
    }

    // The single-key form (a bigint), apart from any two-key lock.
    private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext('billing.ledger'))";
    private static final String LOCK_SHARED = "SELECT pg_advisory_xact_lock_shared(hashtext('billing.ledger'))";

    private static final String CLAIMED = """
            SELECT partner_id FROM ledger_rebuilds WHERE partner_id = ANY(?)""";
    private static final String FRESH_CLAIM = """
            SELECT 1 FROM ledger_rebuilds WHERE partner_id = ? AND heartbeat_at >= now() - make_interval(secs => ?)""";
    private static final String DROP_STALE = """
            DELETE FROM ledger_rebuilds WHERE heartbeat_at < now() - make_interval(secs => ?) RETURNING partner_id""";
    private static final String CLAIM = """
            INSERT INTO ledger_rebuilds (partner_id, rebuild_id, heartbeat_at) VALUES (?, ?, now())
            ON CONFLICT (partner_id) DO NOTHING""";
    private static final String HEARTBEAT = """
            UPDATE ledger_rebuilds SET heartbeat_at = now() WHERE partner_id = ? AND rebuild_id = ?""";
    private static final String UNCLAIM = """
            DELETE FROM ledger_rebuilds WHERE partner_id = ? AND rebuild_id = ?""";
    private static final String COPY_MEMBERS = """
            INSERT INTO ledger_members (member_id, partner_id, first_name, last_name, email, names_at, billing_start)
            SELECT member_id, partner_id, first_name, last_name, email, names_at, billing_start
            FROM ledger_rebuild_members WHERE partner_id = ? ORDER BY member_id
            ON CONFLICT (member_id) DO NOTHING""";
    private static final String COPY_STATUSES = """
            INSERT INTO ledger_status_changes (id, partner_id, member_id, status, at)
            SELECT id, partner_id, member_id, status, at FROM ledger_rebuild_status_changes WHERE partner_id = ? ORDER BY seq
            ON CONFLICT (id) DO NOTHING""";

    private final LedgerWrites writes;
    private final AuditTrail audit;

    public LedgerRebuilds(LedgerWrites writes, AuditTrail audit) {
        this.writes = writes;
        this.audit = audit;
    }

    /**
     * Whether another rebuild of the partner holds a claim renewed within {@code staleAfter}. A plain
     * read, without the lock: a rebuild waiting for another asks this until it is false, then
     * {@link #claim}s.
     */
    @Transactional
    public boolean claimedByAnother(String partnerId, Duration staleAfter) {
        return LedgerWrites.work(connection -> {
            try (PreparedStatement read = connection.prepareStatement(FRESH_CLAIM)) {
                read.setString(1, partnerId);
                read.setDouble(2, seconds(staleAfter));
                try (ResultSet rows = read.executeQuery()) {
                    return rows.next();
                }
            }
        });
    }

    /**
     * Claims the partner for a new rebuild: its id, or empty while another rebuild's claim is fresh.
     * Claims not renewed within {@code staleAfter} (any partner's) are dropped first, with what they
     * staged; so is anything a stopped rebuild of this partner left.
     */
    @Transactional
    public Optional<UUID> claim(String partnerId, Duration staleAfter) {
        UUID rebuildId = UUID.randomUUID();
        return LedgerWrites.work(connection -> {
            lock(connection, LOCK);
            List<String> cleared = new ArrayList<>();
            try (PreparedStatement drop = connection.prepareStatement(DROP_STALE)) {
                drop.setDouble(1, seconds(staleAfter));
                try (ResultSet rows = drop.executeQuery()) {
                    while (rows.next()) {
                        cleared.add(rows.getString(1));
                    }
                }
            }
            int claimed;
            try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
                claim.setString(1, partnerId);
                claim.setObject(2, rebuildId);
                claimed = claim.executeUpdate();
            }
            if (claimed == 1) {
                cleared.add(partnerId);
            }
            forgetStaged(connection, cleared);
            return claimed == 1 ? Optional.of(rebuildId) : Optional.empty();
        });
    }

    /**
     * Merges one page of the owners' data into what the rebuild staged, renewing its claim.
     *
     * @throws ClaimLost when the claim is no longer this rebuild's
     */
    @Transactional
    public void stage(String partnerId, UUID rebuildId, List<LedgerWrites.Names> names, List<LedgerWrites.Status> statuses,
                      List<LedgerWrites.Approval> approvals) {
        LedgerWrites.work(connection -> {
            lock(connection, LOCK);
            try (PreparedStatement heartbeat = connection.prepareStatement(HEARTBEAT)) {
                heartbeat.setString(1, partnerId);
                heartbeat.setObject(2, rebuildId);
                if (heartbeat.executeUpdate() == 0) {
                    throw new ClaimLost();
                }
            }
            return null;
        });
        writes.names(Tables.STAGED, names);
        writes.statuses(Tables.STAGED, statuses);
        writes.approvals(Tables.STAGED, approvals);
    }

    /**
     * Replaces the partner's live rows with what the rebuild staged, and ends the claim, in one
     * transaction: summaries read the old rows until it commits. A staged member whose id the live
     * ledger holds under another partner is left to that partner, as the merges leave it.
     *
     * @throws ClaimLost when the claim is no longer this rebuild's
     */
    @Transactional
    public void swap(String partnerId, UUID rebuildId) {
        LedgerWrites.work(connection -> {
            lock(connection, LOCK);
            if (unclaim(connection, partnerId, rebuildId) == 0) {
                throw new ClaimLost();
            }
            for (String sql : List.of("DELETE FROM ledger_status_changes WHERE partner_id = ?",
                    "DELETE FROM ledger_members WHERE partner_id = ?", COPY_MEMBERS, COPY_STATUSES)) {
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.setString(1, partnerId);
                    statement.executeUpdate();
                }
            }
            forgetStaged(connection, List.of(partnerId));
            return null;
        });
        // The rebuild's change is this swap: its audit entry commits with it (a rebuild that failed wrote none).
        audit.record("billing_ledger.rebuild", "billing_ledger", partnerId, partnerId);
    }

    /** Gives the claim up with what it staged (a rebuild that failed); nothing when it is no longer this rebuild's. */
    @Transactional
    public void release(String partnerId, UUID rebuildId) {
        LedgerWrites.work(connection -> {
            lock(connection, LOCK);
            if (unclaim(connection, partnerId, rebuildId) == 1) {
                forgetStaged(connection, List.of(partnerId));
            }
            return null;
        });
    }

    /**
     * In a consumer's transaction, before it writes anything: takes the ledger's lock shared and
     * answers which of {@code partnerIds} are being rebuilt, whose merges go to the staged rows too.
     * The answer holds until the transaction ends (claims change only under the lock, exclusively).
     */
    Set<String> rebuilding(Collection<String> partnerIds) {
        if (partnerIds.isEmpty()) {
            return Set.of();
        }
        return LedgerWrites.work(connection -> {
            lock(connection, LOCK_SHARED);
            Set<String> claimed = new HashSet<>();
            try (PreparedStatement read = connection.prepareStatement(CLAIMED)) {
                read.setArray(1, connection.createArrayOf("text", partnerIds.toArray()));
                try (ResultSet rows = read.executeQuery()) {
                    while (rows.next()) {
                        claimed.add(rows.getString(1));
                    }
                }
            }
            return claimed;
        });
    }

    private static void lock(Connection connection, String sql) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(sql); ResultSet ignored = lock.executeQuery()) {
            // Returns when the lock is held.
        }
    }

    private static int unclaim(Connection connection, String partnerId, UUID rebuildId) throws SQLException {
        try (PreparedStatement unclaim = connection.prepareStatement(UNCLAIM)) {
            unclaim.setString(1, partnerId);
            unclaim.setObject(2, rebuildId);
            return unclaim.executeUpdate();
        }
    }

    private static void forgetStaged(Connection connection, List<String> partnerIds) throws SQLException {
        if (partnerIds.isEmpty()) {
            return;
        }
        for (String table : List.of(Tables.STAGED.statusChanges, Tables.STAGED.members)) {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table + " WHERE partner_id = ANY(?)")) {
                delete.setArray(1, connection.createArrayOf("text", partnerIds.toArray()));
                delete.executeUpdate();
            }
        }
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}

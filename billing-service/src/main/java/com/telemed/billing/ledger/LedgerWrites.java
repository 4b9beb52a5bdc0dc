package com.telemed.billing.ledger;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.hibernate.Session;

/**
 * The ledger's merges, each one JDBC batch in the caller's transaction. Every merge gives the same
 * rows whatever the order and the number of times it is applied, which is what lets the
 * consumers take events twice and out of order between topics, and the rebuild run beside them:
 * <ul>
 *   <li>names: kept from the newest source ({@code names_at}); an older one changes nothing</li>
 *   <li>billing start: the earliest approval seen</li>
 *   <li>status changes: inserted once by id</li>
 * </ul>
 * Rows are merged in member id order, so two transactions touching the same members take their
 * row locks in one order. Every statement names the partner: a merge never reaches another
 * partner's row, even under a member id it does not own.
 *
 * <p>Each merge goes to the live ledger or to a running rebuild's staged copy ({@link Tables}),
 * which takes the same merges: the rebuild's pages and the events consumed while it runs
 * ({@link LedgerRebuilds}).
 */
@ApplicationScoped
public class LedgerWrites {

    public record Names(String partnerId, UUID memberId, String firstName, String lastName, String email, Instant at) {
    }

    public record Approval(String partnerId, UUID memberId, Instant at) {
    }

    public record Status(UUID id, String partnerId, UUID memberId, String status, Instant at) {
    }

    public record Deletion(String partnerId, UUID memberId) {
    }

    /** Where a merge goes: the live ledger (V3) or what a running rebuild staged (V4), tables of the same shape. */
    public enum Tables {
        LIVE("ledger_members", "ledger_status_changes"),
        STAGED("ledger_rebuild_members", "ledger_rebuild_status_changes");

        final String members;
        final String statusChanges;
        private final String names;
        private final String approval;
        private final String status;
        private final String deleteStatuses;
        private final String deleteMember;

        Tables(String members, String statusChanges) {
            this.members = members;
            this.statusChanges = statusChanges;
            this.names = NAMES.formatted(members, members, members, members);
            this.approval = APPROVAL.formatted(members, members, members, members);
            this.status = STATUS.formatted(statusChanges);
            this.deleteStatuses = DELETE_STATUSES.formatted(statusChanges, members);
            this.deleteMember = DELETE_MEMBER.formatted(members);
        }
    }

    // Table names filled in per Tables (constants, never input).
    private static final String NAMES = """
            INSERT INTO %s (member_id, partner_id, first_name, last_name, email, names_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (member_id) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name,
                email = excluded.email, names_at = excluded.names_at
            WHERE %s.partner_id = excluded.partner_id
              AND (%s.names_at IS NULL OR %s.names_at <= excluded.names_at)""";

    private static final String APPROVAL = """
            INSERT INTO %s (member_id, partner_id, billing_start) VALUES (?, ?, ?)
            ON CONFLICT (member_id) DO UPDATE SET billing_start = excluded.billing_start
            WHERE %s.partner_id = excluded.partner_id
              AND (%s.billing_start IS NULL OR %s.billing_start > excluded.billing_start)""";

    private static final String STATUS = """
            INSERT INTO %s (id, partner_id, member_id, status, at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING""";

    /** A deleted member never had a request (members-service refuses otherwise), so was never billable. */
    private static final String DELETE_STATUSES = """
            DELETE FROM %s s WHERE s.partner_id = ? AND s.member_id = ?
              AND NOT EXISTS (SELECT 1 FROM %s m WHERE m.member_id = s.member_id AND m.billing_start IS NOT NULL)""";
    private static final String DELETE_MEMBER = """
            DELETE FROM %s WHERE partner_id = ? AND member_id = ? AND billing_start IS NULL""";

    private static final String FIRST_DELIVERIES = """
            INSERT INTO consumed_events (event_id) SELECT unnest(?::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id""";

    private static final Comparator<UUID> BY_ID = Comparator.naturalOrder();

    /**
     * Records the envelope ids; answers those not recorded before (an id twice in one call is
     * first delivered once). In the transaction of the ledger change, so an id is recorded exactly
     * when its change committed.
     */
    public Set<UUID> firstDeliveries(Collection<UUID> eventIds) {
        if (eventIds.isEmpty()) {
            return Set.of();
        }
        return work(connection -> {
            Set<UUID> fresh = new HashSet<>();
            try (PreparedStatement insert = connection.prepareStatement(FIRST_DELIVERIES)) {
                Array ids = connection.createArrayOf("uuid", eventIds.toArray());
                insert.setArray(1, ids);
                try (ResultSet rows = insert.executeQuery()) {
                    while (rows.next()) {
                        fresh.add(rows.getObject(1, UUID.class));
                    }
                }
            }
            return fresh;
        });
    }

    public void names(Tables tables, List<Names> names) {
        batch(tables.names, sorted(names, Names::memberId), (statement, row) -> {
            statement.setObject(1, row.memberId());
            statement.setString(2, row.partnerId());
            statement.setString(3, row.firstName());
            statement.setString(4, row.lastName());
            statement.setString(5, row.email());
            statement.setObject(6, utc(row.at()));
        });
    }

    public void approvals(Tables tables, List<Approval> approvals) {
        batch(tables.approval, sorted(approvals, Approval::memberId), (statement, row) -> {
            statement.setObject(1, row.memberId());
            statement.setString(2, row.partnerId());
            statement.setObject(3, utc(row.at()));
        });
    }

    /** In the order given: {@code seq} keeps it for changes of one millisecond. */
    public void statuses(Tables tables, List<Status> statuses) {
        batch(tables.status, statuses, (statement, row) -> {
            statement.setObject(1, row.id());
            statement.setString(2, row.partnerId());
            statement.setObject(3, row.memberId());
            statement.setString(4, row.status());
            statement.setObject(5, utc(row.at()));
        });
    }

    public void deletions(Tables tables, List<Deletion> deletions) {
        List<Deletion> ordered = sorted(deletions, Deletion::memberId);
        batch(tables.deleteStatuses, ordered, (statement, row) -> {
            statement.setString(1, row.partnerId());
            statement.setObject(2, row.memberId());
        });
        batch(tables.deleteMember, ordered, (statement, row) -> {
            statement.setString(1, row.partnerId());
            statement.setObject(2, row.memberId());
        });
    }

    private interface Binder<T> {
        void bind(PreparedStatement statement, T row) throws SQLException;
    }

    interface Work<R> {
        R run(Connection connection) throws SQLException;
    }

    private static <T> void batch(String sql, List<T> rows, Binder<T> binder) {
        if (rows.isEmpty()) {
            return;
        }
        work(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                for (T row : rows) {
                    binder.bind(statement, row);
                    statement.addBatch();
                }
                statement.executeBatch();
            }
            return null;
        });
    }

    /** JDBC on the connection of the caller's transaction. */
    static <R> R work(Work<R> work) {
        return Panache.getEntityManager().unwrap(Session.class).doReturningWork(work::run);
    }

    private static <T> List<T> sorted(List<T> rows, Function<T, UUID> key) {
        List<T> ordered = new ArrayList<>(rows);
        ordered.sort(Comparator.comparing(key, BY_ID));
        return ordered;
    }

    private static OffsetDateTime utc(Instant at) {
        return at.atOffset(ZoneOffset.UTC);
    }
}

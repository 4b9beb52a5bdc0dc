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

    private static final String NAMES = """
            INSERT INTO ledger_members (member_id, partner_id, first_name, last_name, email, names_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (member_id) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name,
                email = excluded.email, names_at = excluded.names_at
            WHERE ledger_members.partner_id = excluded.partner_id
              AND (ledger_members.names_at IS NULL OR ledger_members.names_at <= excluded.names_at)""";

    private static final String APPROVAL = """
            INSERT INTO ledger_members (member_id, partner_id, billing_start) VALUES (?, ?, ?)
            ON CONFLICT (member_id) DO UPDATE SET billing_start = excluded.billing_start
            WHERE ledger_members.partner_id = excluded.partner_id
              AND (ledger_members.billing_start IS NULL OR ledger_members.billing_start > excluded.billing_start)""";

    private static final String STATUS = """
            INSERT INTO ledger_status_changes (id, partner_id, member_id, status, at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING""";

    /** A deleted member never had a request (members-service refuses otherwise), so was never billable. */
    private static final String DELETE_STATUSES = """
            DELETE FROM ledger_status_changes s WHERE s.partner_id = ? AND s.member_id = ?
              AND NOT EXISTS (SELECT 1 FROM ledger_members m WHERE m.member_id = s.member_id AND m.billing_start IS NOT NULL)""";
    private static final String DELETE_MEMBER = """
            DELETE FROM ledger_members WHERE partner_id = ? AND member_id = ? AND billing_start IS NULL""";

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

    public void names(List<Names> names) {
        batch(NAMES, sorted(names, Names::memberId), (statement, row) -> {
            statement.setObject(1, row.memberId());
            statement.setString(2, row.partnerId());
            statement.setString(3, row.firstName());
            statement.setString(4, row.lastName());
            statement.setString(5, row.email());
            statement.setObject(6, utc(row.at()));
        });
    }

    public void approvals(List<Approval> approvals) {
        batch(APPROVAL, sorted(approvals, Approval::memberId), (statement, row) -> {
            statement.setObject(1, row.memberId());
            statement.setString(2, row.partnerId());
            statement.setObject(3, utc(row.at()));
        });
    }

    /** In the order given: {@code seq} keeps it for changes of one millisecond. */
    public void statuses(List<Status> statuses) {
        batch(STATUS, statuses, (statement, row) -> {
            statement.setObject(1, row.id());
            statement.setString(2, row.partnerId());
            statement.setObject(3, row.memberId());
            statement.setString(4, row.status());
            statement.setObject(5, utc(row.at()));
        });
    }

    public void deletions(List<Deletion> deletions) {
        List<Deletion> ordered = sorted(deletions, Deletion::memberId);
        batch(DELETE_STATUSES, ordered, (statement, row) -> {
            statement.setString(1, row.partnerId());
            statement.setObject(2, row.memberId());
        });
        batch(DELETE_MEMBER, ordered, (statement, row) -> {
            statement.setString(1, row.partnerId());
            statement.setObject(2, row.memberId());
        });
    }

    /** Forgets a partner's ledger (the rebuild's first step; the consumed event ids stay). */
    public void forgetPartner(String partnerId) {
        work(connection -> {
            for (String table : List.of("ledger_status_changes", "ledger_members")) {
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table + " WHERE partner_id = ?")) {
                    delete.setString(1, partnerId);
                    delete.executeUpdate();
                }
            }
            return null;
        });
    }

    private interface Binder<T> {
        void bind(PreparedStatement statement, T row) throws SQLException;
    }

    private interface Work<R> {
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

    private static <R> R work(Work<R> work) {
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

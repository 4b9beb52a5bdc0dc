package com.telemed.billing.summary;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.hibernate.Session;

/**
 * The ledger read of one summary: the partner's members with a first approval at or before the
 * period's end, in {@code billingStart} (then member id) order, each with their status timeline.
 * One query, streamed (a cursor of {@value #FETCH} rows at a time), so a partner with a hundred
 * thousand billable members is read without holding them all as rows.
 */
@ApplicationScoped
public class BillableRows {

    public static final int FETCH = 5_000;

    public record Row(UUID memberId, String firstName, String lastName, String email, Instant billingStart, StatusTimeline timeline) {
    }

    /** The read itself: partner id, then the period's end. Public for bench/'s EXPLAIN (bench/billing.sh). */
    public static final String SQL = """
            SELECT m.member_id, m.first_name, m.last_name, m.email, m.billing_start, s.status, s.at
            FROM ledger_members m
            LEFT JOIN ledger_status_changes s ON s.member_id = m.member_id AND s.partner_id = m.partner_id
            WHERE m.partner_id = ? AND m.billing_start IS NOT NULL AND m.billing_start <= ?
            ORDER BY m.billing_start, m.member_id, s.at, s.seq""";

    /** Calls {@code each} per member, in order; runs in the caller's transaction. */
    public void forEach(String partnerId, Instant notAfter, Consumer<Row> each) {
        Panache.getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement query = connection.prepareStatement(SQL)) {
                query.setFetchSize(FETCH);
                query.setString(1, partnerId);
                query.setObject(2, notAfter.atOffset(ZoneOffset.UTC));
                try (ResultSet rows = query.executeQuery()) {
                    Pending pending = null;
                    while (rows.next()) {
                        UUID memberId = rows.getObject(1, UUID.class);
                        if (pending == null || !pending.memberId.equals(memberId)) {
                            if (pending != null) {
                                each.accept(pending.row());
                            }
                            pending = new Pending(memberId, rows.getString(2), rows.getString(3), rows.getString(4),
                                    rows.getObject(5, OffsetDateTime.class).toInstant());
                        }
                        String status = rows.getString(6);
                        if (status != null) {
                            pending.points.add(new StatusTimeline.Point(rows.getObject(7, OffsetDateTime.class).toInstant(), status));
                        }
                    }
                    if (pending != null) {
                        each.accept(pending.row());
                    }
                }
            }
        });
    }

    private static final class Pending {
        final UUID memberId;
        final String firstName;
        final String lastName;
        final String email;
        final Instant billingStart;
        final List<StatusTimeline.Point> points = new ArrayList<>();

        Pending(UUID memberId, String firstName, String lastName, String email, Instant billingStart) {
            this.memberId = memberId;
            this.firstName = firstName;
            this.lastName = lastName;
            this.email = email;
            this.billingStart = billingStart;
        }

        Row row() {
            return new Row(memberId, firstName, lastName, email, billingStart, new StatusTimeline(points));
        }
    }
}

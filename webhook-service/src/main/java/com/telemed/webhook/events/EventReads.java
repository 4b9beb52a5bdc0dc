package com.telemed.webhook.events;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A partner's events, read from its cursor: every statement is scoped by the partner, and the
 * delivery state is joined in from {@code deliveries} (the same id; its newest attempt kept on the row). One statement
 * per page, the cursor's lookup included: its snapshot holds, for every sequence number it shows, all smaller ones of
 * the partner (EventRecorder), so following {@code nextCursor} never skips an event.
 */
@Singleton
public class EventReads {

    public static final String NOT_FOUND = "Event not found";
    public static final String UNKNOWN_CURSOR = "Unknown cursor";

    /**
     * The delivery state comes from a LATERAL subquery fenced by {@code OFFSET 0}: PostgreSQL cannot flatten it into a
     * join, so every plan, the generic plan of a server-prepared statement included (it guesses a tenth of the partner's
     * rows for {@code LIMIT ?}), is the range of {@code events_partner_seq_idx} stopped at the limit, then one probe of
     * {@code deliveries_pkey} per row; a plain LEFT JOIN let that generic plan start parallel workers for the join (or
     * hash every delivery when the limit moved into a subquery), and the parameterised subquery cannot run in a worker.
     * {@code last_attempt_at} is the delivery's newest attempt, kept on its row by the recorder and migration V8's
     * trigger (the page read it from {@code delivery_attempts}, a second probe per row, 364 of the page's 766 buffers);
     * a delivery recorded before V8 has attempts but no {@code last_attempt_at}, and only for such a row is its newest
     * attempt read from {@code delivery_attempts} (a delivery never attempted has {@code attempt_count} 0). EXPLAIN of
     * both plans at 1,000,000 events: bench/results/events-plans.md.
     */
    private static final String COLUMNS = "SELECT e.id, e.type, e.created_at, e.body, d.status, d.attempt_count, d.last_attempt_at,"
            + " e.seq, e.event_id FROM events e LEFT JOIN LATERAL (SELECT d.status, d.attempt_count,"
            + " CASE WHEN d.last_attempt_at IS NOT NULL OR d.attempt_count = 0 THEN d.last_attempt_at"
            + " ELSE (SELECT a.at FROM delivery_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1) END AS last_attempt_at"
            + " FROM deliveries d WHERE d.id = e.id OFFSET 0) d ON true";

    /**
     * The page without a cursor, its row count appended ({@link #pageSql}): a constant, not a parameter, so that the
     * generic plan knows it (a parameter is guessed at a tenth of the rows, and that plan costs so much more than each
     * value's that PostgreSQL planned every page again, about a tenth of the page's CPU); one statement per limit, each
     * prepared once per connection and then served by its generic plan.
     */
    static final String PAGE = COLUMNS + " WHERE e.partner_id = ? AND e.seq > 0 ORDER BY e.seq LIMIT ";

    static final String PAGE_OF_TYPES = COLUMNS + " WHERE e.partner_id = ? AND e.seq > 0 AND e.type = ANY (?)"
            + " ORDER BY e.seq LIMIT ";

    /**
     * The page after a cursor, the cursor's lookup in the same statement (issue 44, round 4: one round trip fewer): the
     * cursor's row by {@code events_pkey} (the partner's only), then {@link #PAGE}'s rows after its sequence number, a
     * LATERAL subquery (its range parameterised by the cursor's row, so a nested loop with the cursor outside: the same
     * index range stopped at the limit under the generic and the custom plan, bench/results/events-plans.md). No row:
     * the cursor is not one of the partner's kept events; one row of nulls: a known cursor and nothing after it.
     * Rows come in the subquery's order (one outer row); {@link #page} checks it rather than have PostgreSQL sort them.
     */
    static final String AFTER = "SELECT p.* FROM (SELECT c.seq FROM events c WHERE c.id = ? AND c.partner_id = ?) c"
            + " LEFT JOIN LATERAL (" + COLUMNS + " WHERE e.partner_id = ? AND e.seq > c.seq";

    static final String PAGE_AFTER = AFTER + " ORDER BY e.seq LIMIT ";

    static final String PAGE_AFTER_OF_TYPES = AFTER + " AND e.type = ANY (?) ORDER BY e.seq LIMIT ";

    static final String ONE = COLUMNS + " WHERE e.id = ? AND e.partner_id = ?";

    /** An event as stored, with the envelope id and sequence number the wire does not show. */
    public record Stored(EventsViews.Event view, long seq, String envelopeId) {
    }

    private final AgroalDataSource dataSource;

    public EventReads(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Up to {@code limit} events after {@code after} (from the oldest kept without one), oldest first,
     * of {@code types} only when given. {@code 400 Unknown cursor}: an id that is not one of the
     * partner's kept events.
     */
    public EventsViews.Page page(String partnerId, String after, List<String> types, int limit) {
        Optional<UUID> cursor = Optional.empty();
        if (after != null) {
            cursor = Ids.uuid(after);
            if (cursor.isEmpty()) {
                throw ApiException.badRequest(UNKNOWN_CURSOR);
            }
        }
        try (Connection connection = dataSource.getConnection();
             // One more than asked: whether there is more.
             PreparedStatement select = connection.prepareStatement(pageSql(types != null, cursor.isPresent(), limit + 1))) {
            int parameter = 0;
            if (cursor.isPresent()) {
                select.setObject(++parameter, cursor.get());
                select.setString(++parameter, partnerId);
            }
            select.setString(++parameter, partnerId);
            if (types != null) {
                select.setArray(++parameter, connection.createArrayOf("text", types.toArray(String[]::new)));
            }
            List<Stored> events = new ArrayList<>(limit + 1);
            boolean known = cursor.isEmpty();
            boolean ordered = true;
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    known = true;
                    UUID id = rows.getObject(1, UUID.class);
                    if (id == null) {
                        // The cursor's row with nothing after it.
                        continue;
                    }
                    Stored event = read(rows, id);
                    ordered &= events.isEmpty() || events.get(events.size() - 1).seq() < event.seq();
                    events.add(event);
                }
            }
            if (!known) {
                throw ApiException.badRequest(UNKNOWN_CURSOR);
            }
            if (!ordered) {
                // Never seen (see AFTER): the page in sequence order all the same.
                events.sort(Comparator.comparingLong(Stored::seq));
            }
            boolean more = events.size() > limit;
            List<EventsViews.Event> views = new ArrayList<>(Math.min(limit, events.size()));
            for (int i = 0; i < events.size() && i < limit; i++) {
                views.add(events.get(i).view());
            }
            String next = views.isEmpty() ? after : views.get(views.size() - 1).id().toString();
            return new EventsViews.Page(views, next, more);
        } catch (SQLException e) {
            throw new IllegalStateException("reading events failed", e);
        }
    }

    /** The page's statement for {@code rows} rows (a bound integer, never a caller's text). */
    static String pageSql(boolean ofTypes, boolean afterCursor, int rows) {
        if (afterCursor) {
            return (ofTypes ? PAGE_AFTER_OF_TYPES : PAGE_AFTER) + rows + ") p ON true";
        }
        return (ofTypes ? PAGE_OF_TYPES : PAGE) + rows;
    }

    /** The partner's event; {@code 404 Event not found} for an unknown, malformed or other partner's id. */
    public Stored one(String partnerId, String id) {
        Optional<UUID> uuid = Ids.uuid(id);
        if (uuid.isEmpty()) {
            throw ApiException.notFound(NOT_FOUND);
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(ONE)) {
            select.setObject(1, uuid.get());
            select.setString(2, partnerId);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw ApiException.notFound(NOT_FOUND);
                }
                return read(rows, rows.getObject(1, UUID.class));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading an event failed", e);
        }
    }

    private static Stored read(ResultSet rows, UUID id) throws SQLException {
        String status = rows.getString(5);
        Timestamp last = rows.getTimestamp(7);
        EventsViews.Delivery delivery = status == null
                ? new EventsViews.Delivery("not_sent", 0, null)
                : new EventsViews.Delivery(status, rows.getInt(6), last == null ? null : last.toInstant());
        Instant created = rows.getTimestamp(3).toInstant();
        return new Stored(new EventsViews.Event(id, rows.getString(2), created,
                rows.getString(4), delivery), rows.getLong(8), rows.getString(9));
    }
}

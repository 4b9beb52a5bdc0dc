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
import java.util.stream.IntStream;

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
     * One event, and the pages of types: the delivery state comes from a LATERAL subquery fenced by {@code OFFSET 0}
     * (the pages without a type filter read it as a range instead, {@link #RANGE_TAIL}): PostgreSQL cannot flatten it into a
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
     * A delivery's state as the page shows it: {@code last_attempt_at} as {@link #COLUMNS} reads it (the newest attempt's
     * subquery only for a delivery recorded before V8).
     */
    private static final String DELIVERY_STATE = "d.id, d.status, d.attempt_count,"
            + " CASE WHEN d.last_attempt_at IS NOT NULL OR d.attempt_count = 0 THEN d.last_attempt_at"
            + " ELSE (SELECT a.at FROM delivery_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1) END AS last_attempt_at";

    /**
     * The page's rows with their delivery state read as a range (issue 44, round 5), for the pages without a type
     * filter: {@code page}, the events by {@code events_partner_seq_idx} stopped at the limit; {@code near}, the
     * partner's deliveries made between the page's first and last {@code created_at} (intake writes an event and its
     * delivery with one timestamp), one index range where the page probed {@code deliveries_pkey} once per row; each
     * event joined to its delivery by id. An event whose delivery is not in that range (none was made: the partner had no
     * URL; or a delivery written with another timestamp, as releases before intake's one statement did) probes
     * {@code deliveries_pkey} as before, only for that row (the {@code n.id IS NULL} gate). So the range never decides
     * what a row shows, only how it is found. Then {@code p.seq} orders the page's rows (at most the limit).
     */
    private static final String RANGE_TAIL = " page AS MATERIALIZED (SELECT e.id, e.type, e.created_at, e.body, e.seq, e.event_id"
            + "   FROM events e WHERE e.partner_id = ? AND e.seq > %s ORDER BY e.seq LIMIT %d),"
            + " near AS MATERIALIZED (SELECT " + DELIVERY_STATE + " FROM deliveries d WHERE d.partner_id = ?"
            + "   AND d.created_at >= (SELECT min(created_at) FROM page) AND d.created_at <= (SELECT max(created_at) FROM page))"
            + " SELECT p.id, p.type, p.created_at, p.body, coalesce(n.status, f.status), coalesce(n.attempt_count, f.attempt_count),"
            + " CASE WHEN n.id IS NULL THEN f.last_attempt_at ELSE n.last_attempt_at END, p.seq, p.event_id"
            + " FROM %s page p LEFT JOIN near n ON n.id = p.id"
            + " LEFT JOIN LATERAL (SELECT " + DELIVERY_STATE + " FROM deliveries d WHERE d.id = p.id AND n.id IS NULL OFFSET 0) f ON true"
            + "%s ORDER BY p.seq";

    /**
     * The page without a cursor, its row count written in ({@link #pageSql}): a constant, not a parameter, so that the
     * generic plan knows it (a parameter is guessed at a tenth of the rows, and that plan costs so much more than each
     * value's that PostgreSQL planned every page again, about a tenth of the page's CPU); one statement per limit, each
     * prepared once per connection and then served by its generic plan. Parameters: the partner twice.
     */
    static String page(int rows) {
        return "WITH" + RANGE_TAIL.formatted("0", rows, "", "");
    }

    /**
     * The page after a cursor, the cursor's lookup in the same statement (issue 44, round 4: one round trip fewer): the
     * cursor's row by {@code events_pkey} (the partner's only), the page's events after its sequence number. No row:
     * the cursor is not one of the partner's kept events; one row of nulls: a known cursor and nothing after it.
     * Parameters: the cursor, then the partner three times.
     */
    static String pageAfter(int rows) {
        return "WITH c AS (SELECT c.seq FROM events c WHERE c.id = ? AND c.partner_id = ?),"
                + RANGE_TAIL.formatted("(SELECT seq FROM c)", rows, "c LEFT JOIN (", ") ON true");
    }

    /**
     * The page of some types: their rows of the same range, each with a probe of {@code deliveries_pkey} (a type the
     * partner rarely has spreads a page over a long time, so a range of deliveries could be most of the partner's).
     */
    static final String PAGE_OF_TYPES = COLUMNS + " WHERE e.partner_id = ? AND e.seq > 0 AND e.type = ANY (?)"
            + " ORDER BY e.seq LIMIT ";

    /**
     * The page of some types after a cursor, in one statement: the cursor's row by {@code events_pkey}, then the rows
     * after its sequence number, a LATERAL subquery (its range parameterised by the cursor's row, so a nested loop with
     * the cursor outside: the same index range stopped at the limit under the generic and the custom plan,
     * bench/results/events-plans.md). Rows come in the subquery's order (one outer row); {@link #page} checks it rather
     * than have PostgreSQL sort them.
     */
    static final String PAGE_AFTER_OF_TYPES = "SELECT p.* FROM (SELECT c.seq FROM events c WHERE c.id = ? AND c.partner_id = ?) c"
            + " LEFT JOIN LATERAL (" + COLUMNS + " WHERE e.partner_id = ? AND e.seq > c.seq AND e.type = ANY (?) ORDER BY e.seq LIMIT ";

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
            } else {
                // near's partner.
                select.setString(++parameter, partnerId);
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
                // Never seen (each statement orders its rows): the page in sequence order all the same.
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

    /** The pages without a type filter for 1 to 101 rows (a limit of 100, and one more), written once. */
    private static final String[] PAGES = IntStream.rangeClosed(0, 101).mapToObj(rows -> rows == 0 ? null : page(rows))
            .toArray(String[]::new);

    private static final String[] PAGES_AFTER = IntStream.rangeClosed(0, 101).mapToObj(rows -> rows == 0 ? null : pageAfter(rows))
            .toArray(String[]::new);

    /** The page's statement for {@code rows} rows (a bound integer, never a caller's text); bench/ runs it too. */
    public static String pageSql(boolean ofTypes, boolean afterCursor, int rows) {
        if (!ofTypes) {
            if (rows < PAGES.length) {
                return afterCursor ? PAGES_AFTER[rows] : PAGES[rows];
            }
            return afterCursor ? pageAfter(rows) : page(rows);
        }
        return afterCursor ? PAGE_AFTER_OF_TYPES + rows + ") p ON true" : PAGE_OF_TYPES + rows;
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

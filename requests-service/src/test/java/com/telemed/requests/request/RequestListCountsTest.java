package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.cancel;
import static com.telemed.requests.request.RequestFixtures.consultation;
import static com.telemed.requests.request.RequestFixtures.created;
import static com.telemed.requests.request.RequestFixtures.delete;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.newDrugId;
import static com.telemed.requests.request.RequestFixtures.newPartner;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The list counters of V22 ({@code request_list_counts}, kept by triggers): after concurrent creates,
 * status changes and deletes, every counter equals the brute-force count of the rows, and every total
 * of {@code GET /v1/requests} (each filter, dates with and without a time of day) equals a count of the rows.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestListCountsTest {

    private static final List<String> STATUSES = List.of("pending", "approved", "denied", "call_requested", "completed", "cancelled");

    /** What the counters must hold: each listed request (its item, or itself without one) by status and UTC day. */
    private static final String BRUTE_FORCE = "SELECT status, day, count(*) FROM ("
            + " SELECT status, (request_created_at AT TIME ZONE 'UTC')::date AS day FROM line_items WHERE partner_id = ?"
            + " UNION ALL SELECT status, (created_at AT TIME ZONE 'UTC')::date FROM requests WHERE partner_id = ? AND item_count = 0)"
            + " AS listed GROUP BY status, day";

    @Inject
    FakeNeighbours neighbours;

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService pool = Executors.newFixedThreadPool(8);

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void concurrentCreatesCancelsAndDeletesThroughTheApiLeaveEveryCounterExact() throws Exception {
        neighbours.reset();
        String partner = newPartner();
        String drugId = newDrugId();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg"), partner);
        String memberId = neighbours.seedMember(partner, "Grace", "Hopper", "grace+" + UUID.randomUUID() + "@example.com");
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            int n = i;
            calls.add(pool.submit(() -> {
                String id = created(partner, n % 4 == 0 ? consultation(memberId) : prescription(memberId, drugId));
                switch (n % 3) {
                    // A consultation has no items to withdraw (400, Cancellations.NO_ITEMS).
                    case 1 -> cancel(partner, id, Map.of()).then().statusCode(n % 4 == 0 ? 400 : 200);
                    case 2 -> {
                        if (n % 2 == 0) {
                            delete(partner, id).then().statusCode(204);
                        }
                    }
                    default -> { }
                }
            }));
        }
        for (Future<?> call : calls) {
            call.get(60, TimeUnit.SECONDS);
        }
        assertCounters(partner);
        assertTotals(partner);
    }

    /**
     * Eight writers on the same partner and day (the same few counter rows): inserts, status changes both
     * ways between every pair of statuses, an item added to a request without one, deletes. Nothing is
     * lost. An item added to a request without one is two changes in one statement (the request leaves its
     * status's count, the item joins its own), which can meet a move between the same two statuses in the
     * other order: PostgreSQL then aborts one of them whole (V25), and the writer retries it, as a caller would.
     */
    @Test
    void concurrentWritesOnTheSameCounterRowsLoseNothing() throws Exception {
        String partner = newPartner();
        Instant at = Instant.parse("2026-03-04T10:00:00Z");
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add(insert(partner, at.plusSeconds(i * 3600L), i % 5 != 0));
        }
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            writers.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int step = 0; step < 60; step++) {
                    UUID id = ids.get(random.nextInt(ids.size()));
                    String status = STATUSES.get(random.nextInt(STATUSES.size()));
                    int kind = random.nextInt(5);
                    Instant created = at.plusSeconds(random.nextInt(3 * 86_400));
                    boolean withItem = random.nextBoolean();
                    retryingDeadlocks(() -> {
                        switch (kind) {
                            case 0 -> update("UPDATE line_items SET status = ? WHERE request_id = ?", status, id);
                            case 1 -> update("UPDATE requests SET status = ? WHERE id = ?", status, id);
                            case 2 -> update("WITH r AS (UPDATE requests SET item_count = 1 WHERE id = ? AND item_count = 0 RETURNING *)"
                                    + " INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, status,"
                                    + " created_at, updated_at) SELECT gen_random_uuid(), r.id, r.partner_id, 0, r.created_at, ?, now(), now()"
                                    + " FROM r", id, status);
                            case 3 -> insert(partner, created, withItem);
                            default -> update("DELETE FROM requests WHERE id = ? AND status = ?", id, status);
                        }
                        return null;
                    });
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(60, TimeUnit.SECONDS);
        }
        assertCounters(partner);
        assertTotals(partner);
    }

    /**
     * A create never deadlocks (V25: every change takes its totals rows first). A transaction moves one item from
     * approved to pending and holds that change's counter rows; a create of a pending item on another day of the same
     * month waits, holding nothing, at the pending totals row; the transaction then moves a second item to pending on
     * the create's day and commits, and the create goes on. With days first (V23) the create held its day row while it
     * waited for the month row, the transaction's second change waited for that day row, and PostgreSQL aborted one.
     */
    @Test
    void aCreateWaitsAtItsTotalsRowAndNeverDeadlocksWithATransactionOfTwoChanges() throws Exception {
        String partner = newPartner();
        Instant earlier = Instant.parse("2026-06-03T09:00:00Z");
        Instant day = Instant.parse("2026-06-10T09:00:00Z");
        UUID moved = insert(partner, earlier, true);
        UUID second = insert(partner, day, true);
        update("UPDATE line_items SET status = 'approved' WHERE request_id = ?", moved);
        update("UPDATE line_items SET status = 'denied' WHERE request_id = ?", second);
        String move = "UPDATE line_items SET status = ? WHERE request_id = ?";
        try (Connection transaction = dataSource.getConnection(); Connection creator = dataSource.getConnection()) {
            transaction.setAutoCommit(false);
            long creatorPid = backendPid(creator);
            execute(transaction, move, "pending", moved);
            Future<UUID> create = pool.submit(() -> insert(creator, partner, day.plusSeconds(60), true));
            await().atMost(Duration.ofSeconds(10)).until(() -> waitingOn(creatorPid).startsWith("Lock "));
            execute(transaction, move, "pending", second);
            transaction.commit();
            create.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertCounters(partner);
        assertTotals(partner);
    }

    /**
     * Requests over several months and a year's end: every date filter's total (a range inside one month,
     * ranges with whole months between partial ones, a bound on the 1st of a month, open ends) sums the
     * right days, months and totals, and a status change moves all three levels.
     */
    @Test
    void rangesAcrossMonthsSumWholeMonthsAndPartialDaysExactly() throws Exception {
        String partner = newPartner();
        List<UUID> ids = new ArrayList<>();
        for (String at : List.of("2025-11-30T23:59:59Z", "2025-12-01T00:00:00Z", "2025-12-15T12:00:00Z", "2025-12-31T23:00:00Z",
                "2026-01-01T00:00:00Z", "2026-01-31T10:00:00Z", "2026-02-01T00:00:01Z", "2026-02-28T12:00:00Z", "2026-03-01T08:00:00Z",
                "2026-03-02T08:00:00Z", "2026-04-30T23:59:59Z", "2026-05-01T00:00:00Z")) {
            ids.add(insert(partner, Instant.parse(at), ids.size() % 3 != 0));
        }
        update("UPDATE line_items SET status = 'approved' WHERE request_id = ?", ids.get(1));
        update("UPDATE requests SET status = 'denied' WHERE id = ?", ids.get(3));
        assertCounters(partner);
        List<String> bounds = List.of("2025-11-30", "2025-12-01", "2025-12-02", "2025-12-31", "2026-01-01", "2026-01-31", "2026-02-01",
                "2026-02-28", "2026-03-01", "2026-03-02", "2026-04-30", "2026-05-01", "2026-06-01");
        for (String start : bounds) {
            assertEquals(count("SELECT count(*) FROM requests WHERE partner_id = ? AND created_at >= ?", partner,
                    Timestamp.from(DateBounds.start(start))), total(partner, "startDate=" + start), start);
            assertEquals(count("SELECT count(*) FROM requests WHERE partner_id = ? AND created_at < ?", partner,
                    Timestamp.from(DateBounds.endExclusive(start))), total(partner, "endDate=" + start), start);
            for (String end : bounds) {
                Timestamp from = Timestamp.from(DateBounds.start(start));
                Timestamp to = Timestamp.from(DateBounds.endExclusive(end));
                assertEquals(count("SELECT count(*) FROM requests WHERE partner_id = ? AND created_at >= ? AND created_at < ?",
                        partner, from, to), total(partner, "startDate=" + start + "&endDate=" + end), start + " " + end);
                assertEquals(count(RequestQueries.statusCountSql(true, true).replace(":partner", "?").replace(":status", "?")
                                .replace(":start", "?").replace(":end", "?"), partner, "pending", from, to, partner, "pending", from, to),
                        total(partner, "status=pending&startDate=" + start + "&endDate=" + end), start + " " + end);
            }
        }
    }

    /** A startDate with a time of day: the counters' whole days plus the rest of its day counted from the rows. */
    @Test
    void aStartWithATimeOfDayCountsThePartDayExactly() throws Exception {
        String partner = newPartner();
        for (String at : List.of("2026-05-01T23:59:59.999Z", "2026-05-02T00:00:00Z", "2026-05-02T08:00:00Z", "2026-05-02T08:00:00.001Z",
                "2026-05-02T23:00:00Z", "2026-05-03T00:00:00Z", "2026-05-04T12:00:00Z")) {
            insert(partner, Instant.parse(at), true);
        }
        assertTotals(partner);
        for (String start : List.of("2026-05-02T08:00:00.000Z", "2026-05-02T08:00:00.001Z", "2026-05-02T06:00:00-02:00", "2026-05-01T23:59:59.999Z",
                "2026-05-02T23:00:00.001Z")) {
            for (String end : new String[] {null, "2026-05-02", "2026-05-03", "2026-05-01"}) {
                String query = "startDate=" + start + (end == null ? "" : "&endDate=" + end);
                Instant from = DateBounds.start(start);
                Instant to = end == null ? Instant.parse("3000-01-01T00:00:00Z") : DateBounds.endExclusive(end);
                long expected = count("SELECT count(*) FROM requests WHERE partner_id = ? AND created_at >= ? AND created_at < ?",
                        partner, Timestamp.from(from), Timestamp.from(to));
                assertEquals(expected, total(partner, query), query);
                assertEquals(expected, total(partner, query + "&status=pending"), query);
            }
        }
    }

    /** Every filter's total of the API equals the rows counted: no filter, each status, each status with dates, dates. */
    private void assertTotals(String partner) throws Exception {
        List<LocalDate> days = new ArrayList<>();
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(
                "SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date FROM requests WHERE partner_id = ? ORDER BY 1")) {
            select.setString(1, partner);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    days.add(rows.getObject(1, LocalDate.class));
                }
            }
        }
        assertEquals(count("SELECT count(*) FROM requests WHERE partner_id = ?", partner), total(partner, ""));
        for (String status : STATUSES) {
            assertEquals(count(RequestQueries.statusCountSql(false, false).replace(":partner", "?").replace(":status", "?"),
                    partner, status, partner, status), total(partner, "status=" + status), status);
        }
        for (LocalDate day : days) {
            Timestamp start = Timestamp.from(day.atStartOfDay(ZoneOffset.UTC).toInstant());
            Timestamp end = Timestamp.from(day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
            assertEquals(count("SELECT count(*) FROM requests WHERE partner_id = ? AND created_at >= ?", partner, start),
                    total(partner, "startDate=" + day));
            assertEquals(count("SELECT count(*) FROM requests WHERE partner_id = ? AND created_at < ?", partner, end),
                    total(partner, "endDate=" + day));
            for (String status : STATUSES) {
                assertEquals(count(RequestQueries.statusCountSql(true, true).replace(":partner", "?").replace(":status", "?")
                                .replace(":start", "?").replace(":end", "?"), partner, status, start, end, partner, status, start, end),
                        total(partner, "status=" + status + "&startDate=" + day + "&endDate=" + day), status + " " + day);
            }
        }
    }

    private static long total(String partner, String query) {
        return list(partner, query).then().statusCode(200).extract().jsonPath().getLong("pagination.total");
    }

    /** Every counter of the three levels (V22 days, V23 months and totals) equals the rows counted. */
    private void assertCounters(String partner) throws Exception {
        Map<String, Long> days = bruteForce(partner);
        assertEquals(days, counters(partner));
        Map<String, Long> months = new TreeMap<>();
        Map<String, Long> totals = new TreeMap<>();
        days.forEach((key, count) -> {
            String[] statusAndDay = key.split(" ");
            months.merge(statusAndDay[0] + " " + LocalDate.parse(statusAndDay[1]).withDayOfMonth(1), count, Long::sum);
            totals.merge(statusAndDay[0], count, Long::sum);
        });
        months.values().removeIf(count -> count == 0);
        totals.values().removeIf(count -> count == 0);
        assertEquals(months, grouped("SELECT status, month, requests FROM request_list_month_counts WHERE partner_id = ? AND requests <> 0",
                partner));
        Map<String, Long> totalRows = new TreeMap<>();
        grouped("SELECT status, date '2000-01-01', requests FROM request_list_totals WHERE partner_id = ? AND requests <> 0", partner)
                .forEach((key, count) -> totalRows.put(key.split(" ")[0], count));
        assertEquals(totals, totalRows);
    }

    private Map<String, Long> counters(String partner) throws Exception {
        return grouped("SELECT status, day, requests FROM request_list_counts WHERE partner_id = ? AND requests <> 0", partner);
    }

    private Map<String, Long> bruteForce(String partner) throws Exception {
        return grouped(BRUTE_FORCE, partner, partner);
    }

    private Map<String, Long> grouped(String sql, Object... values) throws Exception {
        Map<String, Long> found = new TreeMap<>();
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                select.setObject(i + 1, values[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1) + " " + rows.getObject(2, LocalDate.class), rows.getLong(3));
                }
            }
        }
        return found;
    }

    private long count(String sql, Object... values) throws Exception {
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                select.setObject(i + 1, values[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** A request (pending) created at {@code at}, with a pending item when {@code withItem}. */
    private UUID insert(String partner, Instant at, boolean withItem) throws Exception {
        try (Connection db = dataSource.getConnection()) {
            return insert(db, partner, at, withItem);
        }
    }

    private static UUID insert(Connection db, String partner, Instant at, boolean withItem) throws Exception {
        UUID id = UUID.randomUUID();
        execute(db, "WITH r AS (INSERT INTO requests (id, partner_id, member_id, status, item_count, created_at, updated_at)"
                + " VALUES (?, ?, gen_random_uuid(), 'pending', ?, ?, ?) RETURNING *)"
                + " INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, status, created_at, updated_at)"
                + " SELECT gen_random_uuid(), r.id, r.partner_id, 0, r.created_at, 'pending', now(), now() FROM r WHERE r.item_count = 1",
                id, partner, withItem ? 1 : 0, Timestamp.from(at), Timestamp.from(at));
        return id;
    }

    /** Runs {@code step} again each time PostgreSQL aborted it as a deadlock (SQLSTATE 40P01): its work was rolled back whole. */
    private static void retryingDeadlocks(Callable<?> step) throws Exception {
        while (true) {
            try {
                step.call();
                return;
            } catch (Exception e) {
                Throwable cause = e;
                while (cause != null && !(cause instanceof SQLException)) {
                    cause = cause.getCause();
                }
                if (!(cause instanceof SQLException sql) || !"40P01".equals(sql.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    private static long backendPid(Connection connection) throws Exception {
        try (PreparedStatement select = connection.prepareStatement("SELECT pg_backend_pid()"); ResultSet rows = select.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** What the backend waits for ({@code wait_event_type wait_event}), or "" while it runs or idles. */
    private String waitingOn(long pid) throws Exception {
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(
                "SELECT coalesce(wait_event_type || ' ' || wait_event, '') FROM pg_stat_activity WHERE pid = ?")) {
            select.setLong(1, pid);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getString(1) : "";
            }
        }
    }

    private static void execute(Connection connection, String sql, Object... values) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        }
    }

    private void update(String sql, Object... values) {
        try (Connection db = dataSource.getConnection()) {
            execute(db, sql, values);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

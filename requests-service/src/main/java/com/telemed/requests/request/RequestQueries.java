package com.telemed.requests.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.member.MembersClient;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.prescription.PrescriptionViews;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The reads of the partner API: the list and the single read. */
@ApplicationScoped
public class RequestQueries {

    public static final String NOT_FOUND = "Request not found";

    private final MembersClient members;
    private final CatalogueClient catalogue;
    private final AgroalDataSource dataSource;

    public RequestQueries(MembersClient members, CatalogueClient catalogue, AgroalDataSource dataSource) {
        this.members = members;
        this.catalogue = catalogue;
        this.dataSource = dataSource;
    }

    /** A validated {@code GET /v1/requests} query. */
    public record ListQuery(String startDate, String endDate, String status, long page, int limit) {
    }

    /**
     * Newest first; filters before pagination. {@code status} matches a request when its item has
     * that status, or, for a request without items, when its stored status is it. The total is read
     * from the counters of V22 and V23 ({@link CounterSum}), exact for every filter: only the part of one
     * day before a {@code startDate} with a time of day is counted from the rows ({@link #countSql}).
     * The page is an index range scan of {@code limit} entries (at most page x limit deeper on).
     */
    public RequestViews.Page list(String partnerId, ListQuery query) {
        Instant start = query.startDate() == null ? null : DateBounds.start(query.startDate());
        Instant end = query.endDate() == null ? null : DateBounds.endExclusive(query.endDate());
        long first = (query.page() - 1) * query.limit();
        long total;
        List<RequestViews.ListEntry> entries;
        // Plain JDBC on one pooled connection in autocommit (issue 44): no transaction, no ORM session, for
        // two reads; under READ COMMITTED each statement had its own snapshot inside a transaction too.
        try (Connection connection = dataSource.getConnection()) {
            total = total(connection, partnerId, query.status(), start, end);
            entries = first >= total ? List.of() : page(connection, partnerId, query.status(), start, end, first, query.limit());
        } catch (SQLException e) {
            throw new IllegalStateException("reading the request list failed", e);
        }
        long totalPages = (total + query.limit() - 1) / query.limit();
        return new RequestViews.Page(entries, new RequestViews.Pagination(query.page(), query.limit(), total, totalPages));
    }

    /**
     * What the counters answer for a list's dates: whole UTC days from {@code fromDay} (inclusive) to
     * {@code toDay} (exclusive), each null when unbounded, and the instants before {@code fromDay} that
     * a startDate with a time of day adds ({@code partialStart} to {@code partialEnd}, null without).
     */
    public record Days(LocalDate fromDay, LocalDate toDay, Instant partialStart, Instant partialEnd) {

        /** {@code end} is a day's start (DateBounds.endExclusive); {@code start} any instant. */
        public static Days of(Instant start, Instant end) {
            LocalDate toDay = end == null ? null : end.atZone(ZoneOffset.UTC).toLocalDate();
            if (start == null) {
                return new Days(null, toDay, null, null);
            }
            LocalDate day = start.atZone(ZoneOffset.UTC).toLocalDate();
            Instant midnight = day.atStartOfDay(ZoneOffset.UTC).toInstant();
            if (start.equals(midnight)) {
                return new Days(day, toDay, null, null);
            }
            Instant nextMidnight = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            Instant partialEnd = end != null && end.isBefore(nextMidnight) ? end : nextMidnight;
            return new Days(day.plusDays(1), toDay, start.isBefore(partialEnd) ? start : null,
                    start.isBefore(partialEnd) ? partialEnd : null);
        }
    }

    /** The exact number of the partner's requests matching the filters: counters, plus a part-day counted. */
    static long total(Connection connection, String partnerId, String status, Instant start, Instant end) throws SQLException {
        Days days = Days.of(start, end);
        CounterSum sum = CounterSum.of(status != null, days.fromDay(), days.toDay());
        Map<String, Object> values = new HashMap<>(sum.days());
        values.put("partner", partnerId);
        values.put("status", status);
        long total = single(connection, sum.sql(), values);
        if (days.partialStart() != null) {
            values.put("start", days.partialStart());
            values.put("end", days.partialEnd());
            total += single(connection, countSql(status != null), values);
        }
        return total;
    }

    private static long single(Connection connection, String sql, Map<String, Object> values) throws SQLException {
        try (PreparedStatement statement = Positional.of(sql).prepare(connection, values);
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * A statement of named parameters ({@code :name}, as {@link #pageRowsSql} and {@link CounterSum} write them for
     * the bench) turned into JDBC's positional ones, once per distinct SQL text (a few dozen shapes): the names in
     * their order.
     */
    record Positional(String sql, List<String> names) {

        private static final Pattern NAME = Pattern.compile("(?<!:):([A-Za-z][A-Za-z0-9]*)");
        private static final Map<String, Positional> CACHE = new ConcurrentHashMap<>();

        static Positional of(String named) {
            return CACHE.computeIfAbsent(named, sql -> {
                List<String> names = new ArrayList<>();
                Matcher matcher = NAME.matcher(sql);
                StringBuilder positional = new StringBuilder();
                while (matcher.find()) {
                    names.add(matcher.group(1));
                    matcher.appendReplacement(positional, "?");
                }
                matcher.appendTail(positional);
                return new Positional(positional.toString(), List.copyOf(names));
            });
        }

        /** Prepared and bound: an Instant as timestamptz, a LocalDate as date, the rest as they are. */
        PreparedStatement prepare(Connection connection, Map<String, Object> values) throws SQLException {
            PreparedStatement statement = connection.prepareStatement(sql);
            try {
                for (int i = 0; i < names.size(); i++) {
                    Object value = values.get(names.get(i));
                    if (value instanceof Instant instant) {
                        statement.setObject(i + 1, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
                    } else {
                        statement.setObject(i + 1, value);
                    }
                }
                return statement;
            } catch (SQLException | RuntimeException e) {
                statement.close();
                throw e;
            }
        }
    }

    /**
     * The total from the counters of whole UTC days from {@code fromDay} (inclusive) to {@code toDay}
     * (exclusive), each null when unbounded: its SQL (named parameters partner, status when asked, and
     * {@link #days}' names) and the dates it is bound with. Three levels of the same counts (V22, V23), the
     * coarsest that fits: without dates, {@code request_list_totals} (a row per status, one with a
     * status); with dates, the whole months inside the range from {@code request_list_month_counts}
     * and only the days of the partial months at its ends from {@code request_list_counts}. Each level is
     * an index range of its primary key. Public, as {@link #statusPageSql}: bench/ EXPLAINs and replays
     * the very SQL that {@link #list} runs.
     */
    public record CounterSum(String sql, Map<String, LocalDate> days) {

        public static CounterSum of(boolean byStatus, LocalDate fromDay, LocalDate toDay) {
            String partner = " WHERE partner_id = :partner" + (byStatus ? " AND status = :status" : "");
            if (fromDay == null && toDay == null) {
                return new CounterSum("SELECT coalesce(sum(requests), 0) FROM request_list_totals" + partner, Map.of());
            }
            // The first whole month from fromDay on, and the start of toDay's month (its days before toDay are partial).
            LocalDate monthFrom = fromDay == null ? null : fromDay.getDayOfMonth() == 1 ? fromDay : fromDay.withDayOfMonth(1).plusMonths(1);
            LocalDate monthTo = toDay == null ? null : toDay.withDayOfMonth(1);
            Map<String, LocalDate> days = new LinkedHashMap<>();
            List<String> parts = new ArrayList<>();
            if (monthFrom != null && monthTo != null && !monthFrom.isBefore(monthTo)) {
                parts.add(range("request_list_counts", "day", partner, "fromDay", fromDay, "toDay", toDay, days));
            } else {
                if (fromDay != null && fromDay.isBefore(monthFrom)) {
                    parts.add(range("request_list_counts", "day", partner, "headFrom", fromDay, "headTo", monthFrom, days));
                }
                parts.add(range("request_list_month_counts", "month", partner, "monthFrom", monthFrom, "monthTo", monthTo, days));
                if (toDay != null && monthTo.isBefore(toDay)) {
                    parts.add(range("request_list_counts", "day", partner, "tailFrom", monthTo, "tailTo", toDay, days));
                }
            }
            return new CounterSum(parts.size() == 1 ? parts.get(0)
                    : "SELECT " + parts.stream().map(part -> "(" + part + ")").collect(Collectors.joining(" + ")), Map.copyOf(days));
        }

        /** The sum of one level's rows from {@code from} (inclusive) to {@code to} (exclusive), either null when unbounded. */
        private static String range(String table, String column, String partner, String fromName, LocalDate from, String toName,
                                    LocalDate to, Map<String, LocalDate> days) {
            if (from != null) {
                days.put(fromName, from);
            }
            if (to != null) {
                days.put(toName, to);
            }
            return "SELECT coalesce(sum(requests), 0) FROM " + table + partner + (from != null ? " AND " + column + " >= :" + fromName : "")
                    + (to != null ? " AND " + column + " < :" + toName : "");
        }
    }

    /**
     * The exact count of the rows created from :start (inclusive) to :end (exclusive), with :status when
     * {@code byStatus}: the part of a day the counters cannot split (a startDate with a time of day).
     */
    public static String countSql(boolean byStatus) {
        return byStatus ? statusCountSql(true, true)
                : "SELECT count(*) FROM requests r WHERE r.partner_id = :partner AND r.created_at >= :start AND r.created_at < :end";
    }

    /**
     * The requests of a page of the list without a status, newest first: named parameters partner,
     * start and end when asked, limit and first (the offset). {@code requests_partner_created_idx}:
     * page 1 reads {@code limit} index entries and their rows.
     */
    public static String unfilteredPageSql(boolean withStart, boolean withEnd) {
        return "SELECT r.* FROM requests r WHERE r.partner_id = :partner" + (withStart ? " AND r.created_at >= :start" : "")
                + (withEnd ? " AND r.created_at < :end" : "") + " ORDER BY r.created_at DESC, r.id DESC LIMIT :limit OFFSET :first";
    }

    /**
     * What a list entry shows of a request and of its item (null for a request without items): the
     * columns of {@link #pageRowsSql}, in {@link #page}'s order.
     */
    private static final String ENTRY_COLUMNS = "r.id, r.member_id, r.member_name, r.member_email, r.member_state, r.status,"
            + " r.consultation_open, r.prescriber_id, r.drug_id, r.drug_name, r.dosage, r.created_at, r.updated_at,"
            + " li.id AS item_id, li.drug_id AS item_drug_id, li.drug_name AS item_drug_name, li.dosage AS item_dosage,"
            + " li.status AS item_status, li.prescriber_id AS item_prescriber_id, li.tracking_number, li.ship_carrier,"
            + " li.delivery_status";

    /**
     * A page of the list in one statement, with the named parameters of its page: without a status the
     * page's requests ({@link #unfilteredPageSql}), with one the page's ids ({@link #statusPageSql}) and
     * each request read by primary key; each with its items (a request has at most one, V5), only the
     * columns an entry shows, newest first. Public, as {@link #statusPageSql}: bench/ EXPLAINs and
     * replays the very SQL that {@link #list} runs.
     */
    public static String pageRowsSql(boolean byStatus, boolean withStart, boolean withEnd) {
        String requests = byStatus
                ? "(" + statusPageSql(withStart, withEnd) + ") p JOIN requests r ON r.id = p.id AND r.partner_id = :partner"
                : "(" + unfilteredPageSql(withStart, withEnd) + ") r";
        return "SELECT " + ENTRY_COLUMNS + " FROM " + requests
                + " LEFT JOIN line_items li ON li.request_id = r.id ORDER BY r.created_at DESC, r.id DESC, li.position";
    }

    /**
     * The entries of a page: one statement ({@link #pageRowsSql}) whose rows are copied into detached
     * {@link Request}s and {@link LineItem}s that no session knows, so the views are the entities'.
     */
    private static List<RequestViews.ListEntry> page(Connection connection, String partnerId, String status, Instant start,
                                                     Instant end, long first, int limit) throws SQLException {
        Map<String, Object> values = new HashMap<>();
        values.put("partner", partnerId);
        values.put("status", status);
        values.put("start", start);
        values.put("end", end);
        values.put("reach", first + limit);
        values.put("limit", limit);
        values.put("first", first);
        List<RequestRows.Listed> listed;
        try (PreparedStatement statement = Positional.of(pageRowsSql(status != null, start != null, end != null))
                .prepare(connection, values);
             ResultSet rows = statement.executeQuery()) {
            listed = RequestRows.grouped(rows, RequestQueries::listed, 14, RequestQueries::listedItem);
        }
        List<RequestViews.ListEntry> entries = new ArrayList<>(listed.size());
        for (RequestRows.Listed entry : listed) {
            entries.add(listEntry(entry.request(), entry.items()));
        }
        return entries;
    }

    private static Request listed(UUID id, ResultSet row) throws SQLException {
        Request request = new Request();
        request.id = id;
        request.memberId = row.getObject(2, UUID.class);
        request.memberName = row.getString(3);
        request.memberEmail = row.getString(4);
        request.memberState = row.getString(5);
        request.status = row.getString(6);
        request.consultationOpen = row.getBoolean(7);
        request.prescriberId = row.getObject(8, UUID.class);
        request.drugId = row.getString(9);
        request.drugName = row.getString(10);
        request.dosage = row.getString(11);
        request.createdAt = RequestRows.instant(row.getTimestamp(12));
        request.updatedAt = RequestRows.instant(row.getTimestamp(13));
        return request;
    }

    private static LineItem listedItem(UUID requestId, UUID itemId, ResultSet row) throws SQLException {
        LineItem item = new LineItem();
        item.id = itemId;
        item.requestId = requestId;
        item.drugId = row.getString(15);
        item.drugName = row.getString(16);
        item.dosage = row.getString(17);
        item.status = row.getString(18);
        item.prescriberId = row.getObject(19, UUID.class);
        item.trackingNumber = row.getString(20);
        item.shipCarrier = row.getString(21);
        item.deliveryStatus = row.getString(22);
        return item;
    }

    /**
     * The exact count of a list by status: the partner's line items with the status plus its requests
     * without items with that stored status. Named parameters partner and status, and start and end
     * when {@code withStart} and {@code withEnd}. Only for the part of a day the counters cannot split
     * ({@link #countSql}), and the brute-force check of the counters in tests.
     */
    public static String statusCountSql(boolean withStart, boolean withEnd) {
        return "SELECT (SELECT count(*)" + statusItems(withStart, withEnd) + ") + (SELECT count(*)"
                + statusItemless(withStart, withEnd) + ")";
    }

    /**
     * The ids of a page of a list by status, newest first: named parameters partner, status, start and
     * end when asked, reach (offset + limit, what each branch reads at most), limit and first (the offset).
     */
    public static String statusPageSql(boolean withStart, boolean withEnd) {
        return "SELECT id FROM ((SELECT li.request_id AS id, li.request_created_at AS created_at" + statusItems(withStart, withEnd)
                + " ORDER BY li.request_created_at DESC, li.request_id DESC LIMIT :reach)"
                + " UNION ALL (SELECT r.id, r.created_at" + statusItemless(withStart, withEnd)
                + " ORDER BY r.created_at DESC, r.id DESC LIMIT :reach))"
                + " AS matching ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :first";
    }

    /** The first index range: line items with the status ({@code line_items_status_idx}). */
    private static String statusItems(boolean withStart, boolean withEnd) {
        return " FROM line_items li WHERE li.partner_id = :partner AND li.status = :status"
                + (withStart ? " AND li.request_created_at >= :start" : "") + (withEnd ? " AND li.request_created_at < :end" : "");
    }

    /** The second: requests without items, by stored status ({@code requests_itemless_status_idx}). */
    private static String statusItemless(boolean withStart, boolean withEnd) {
        return " FROM requests r WHERE r.partner_id = :partner AND r.item_count = 0 AND r.status = :status"
                + (withStart ? " AND r.created_at >= :start" : "") + (withEnd ? " AND r.created_at < :end" : "");
    }

    private static RequestViews.ListEntry listEntry(Request request, List<LineItem> items) {
        if (items.isEmpty()) {
            return new RequestViews.CompatListed(request.id, request.memberId, request.memberName, request.memberEmail,
                    request.memberState, request.drugId, request.drugName, request.dosage,
                    List.of(RequestViews.CompactItem.synthesised(request)), 1, "1 drug - " + request.status,
                    request.status, request.createdAt, request.updatedAt);
        }
        List<String> statuses = items.stream().map(item -> item.status).toList();
        return new RequestViews.Listed(request.id, request.memberId, request.memberName, request.memberEmail,
                request.memberState, items.stream().map(RequestViews.CompactItem::of).toList(), items.size(),
                RequestStatus.summary(statuses), RequestStatus.computed(request, statuses), request.createdAt,
                request.updatedAt);
    }

    /** The partner's request, or {@code 404 Request not found} (unknown, foreign or malformed id). */
    public static Request owned(String partnerId, String id) {
        return Ids.uuid(id).flatMap(uuid -> Request.findOwned(partnerId, uuid))
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /** The single read: the live member record and drug records, items with prescriptions and history. */
    public RequestViews.Detail detail(String partnerId, String id) {
        Loaded loaded = load(partnerId, id);
        Request request = loaded.request();
        Optional<MemberRecord> member = members.find(partnerId, request.memberId.toString());
        Map<String, JsonNode> drugs = new HashMap<>();
        for (LineItem item : loaded.items()) {
            if (item.drugId != null && !drugs.containsKey(item.drugId)) {
                drugs.put(item.drugId, catalogue.lookup(partnerId, item.drugId).map(DrugLookup::drug).orElse(null));
            }
        }
        Map<UUID, PrescriptionRecord> recordByItem = loaded.records().stream()
                .filter(record -> record.lineItemId != null)
                .collect(Collectors.toMap(record -> record.lineItemId, Function.identity(), (older, newer) -> newer));
        List<RequestViews.DetailItem> items = loaded.items().stream()
                .map(item -> detailItem(item, drugs.get(item.drugId), recordByItem.get(item.id), loaded.history()))
                .toList();
        List<String> statuses = loaded.items().stream().map(item -> item.status).toList();
        RequestViews.DetailItem first = items.isEmpty() ? null : items.get(0);
        return new RequestViews.Detail(request.id, request.memberId,
                member.map(MemberRecord::name).orElse(request.memberName),
                member.map(MemberRecord::email).orElse(request.memberEmail),
                member.map(MemberRecord::dateOfBirth).orElse(request.memberDob),
                member.map(MemberRecord::state).orElse(request.memberState),
                member.map(MemberRecord::forPartner).orElse(null),
                items, items.size(), RequestStatus.summary(statuses), RequestStatus.computed(request, statuses),
                loaded.records().stream().map(PrescriptionViews.Record::of).toList(),
                null,
                first == null ? request.drugId : first.drugId(),
                first == null ? request.drugName : first.drugName(),
                first == null ? null : first.drug(),
                first == null ? request.dosage : first.dosage(),
                first == null ? null : first.pharmacyId(),
                request.caseNotes, request.providerId, request.createdAt, request.updatedAt,
                loaded.history().stream().map(RequestViews.History::of).toList());
    }

    private record Loaded(Request request, List<LineItem> items, List<PrescriptionRecord> records, List<HistoryEntry> history) {
    }

    /** One consistent snapshot of the request's rows (the remote calls come after, outside the transaction). */
    @Transactional
    Loaded load(String partnerId, String id) {
        Request request = owned(partnerId, id);
        return new Loaded(request, LineItem.ofRequest(request.id), PrescriptionRecord.ofRequest(request.id),
                HistoryEntry.ofRequest(request.id));
    }

    private static RequestViews.DetailItem detailItem(LineItem item, JsonNode drug, PrescriptionRecord record,
                                                      List<HistoryEntry> history) {
        return new RequestViews.DetailItem(item.id, item.drugId, item.drugName, drug, item.dosage, item.status,
                item.prescriberId, item.pharmacyId,
                record == null ? null : PrescriptionViews.Prescription.of(record),
                record == null ? null : PrescriptionViews.Record.of(record),
                history.stream().filter(entry -> item.id.equals(entry.itemId)).map(RequestViews.History::of).toList(),
                item.pharmacySent, item.pharmacySentAt, item.trackingNumber, item.shipCarrier, item.deliveryStatus);
    }
}

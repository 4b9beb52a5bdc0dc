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
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.panache.common.Parameters;
import jakarta.persistence.Query;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The reads of the partner API: the list and the single read. */
@ApplicationScoped
public class RequestQueries {

    public static final String NOT_FOUND = "Request not found";

    private final MembersClient members;
    private final CatalogueClient catalogue;

    public RequestQueries(MembersClient members, CatalogueClient catalogue) {
        this.members = members;
        this.catalogue = catalogue;
    }

    /** A validated {@code GET /v1/requests} query. */
    public record ListQuery(String startDate, String endDate, String status, long page, int limit) {
    }

    /**
     * Newest first; filters before pagination. {@code status} matches a request when its item has
     * that status, or, for a request without items, when its stored status is it.
     */
    @Transactional
    public RequestViews.Page list(String partnerId, ListQuery query) {
        Instant start = query.startDate() == null ? null : DateBounds.start(query.startDate());
        Instant end = query.endDate() == null ? null : DateBounds.endExclusive(query.endDate());
        long first = (query.page() - 1) * query.limit();
        countFromIndexesOnly();
        Found found = query.status() == null
                ? unfiltered(partnerId, start, end, first, query.limit())
                : byStatus(partnerId, query.status(), start, end, first, query.limit());
        Map<UUID, List<LineItem>> items = LineItem.ofRequests(found.requests().stream().map(request -> request.id).toList())
                .stream().collect(Collectors.groupingBy(item -> item.requestId));
        List<RequestViews.ListEntry> entries = found.requests().stream()
                .map(request -> listEntry(request, items.getOrDefault(request.id, List.of())))
                .toList();
        long totalPages = (found.total() + query.limit() - 1) / query.limit();
        return new RequestViews.Page(entries, new RequestViews.Pagination(query.page(), query.limit(), found.total(), totalPages));
    }

    private record Found(long total, List<Request> requests) {
    }

    /**
     * The exact totals count tens of thousands of index entries. The index-only scan reads the
     * index alone (bench/requests.sh: 8-16 ms for 60,000 pending items), but where the visibility
     * map lags the planner prices it higher and picks a bitmap heap scan that reads every heap
     * page of those rows (177 ms measured). Bitmap scans are off for the rest of this read-only
     * transaction, whose other statements (a page of 20 by index, rows by primary key) never want
     * one. V6 keeps the visibility map current.
     */
    private static void countFromIndexesOnly() {
        Panache.getEntityManager().createNativeQuery("SET LOCAL enable_bitmapscan = off").executeUpdate();
    }

    private static Found unfiltered(String partnerId, Instant start, Instant end, long first, int limit) {
        StringBuilder where = new StringBuilder("partnerId = :partner");
        Parameters params = Parameters.with("partner", partnerId);
        if (start != null) {
            where.append(" and createdAt >= :start");
            params.and("start", start);
        }
        if (end != null) {
            where.append(" and createdAt < :end");
            params.and("end", end);
        }
        long total = Request.count(where.toString(), params);
        List<Request> requests = first >= total ? List.of()
                : Request.<Request>find(where + " order by createdAt desc, id desc", params)
                        .range((int) first, (int) first + limit - 1).list();
        return new Found(total, requests);
    }

    /**
     * Counts and pages from two disjoint index ranges instead of testing every request of the
     * partner (bench/requests.sh measured 1-2 s for that at 100,000 requests): line items with the
     * status ({@code line_items_status_idx}, one item per request at most) and requests without
     * items with that stored status ({@code requests_itemless_status_idx}). Each branch of the page
     * reads at most offset + limit entries.
     */
    @SuppressWarnings("unchecked")
    private static Found byStatus(String partnerId, String status, Instant start, Instant end, long first, int limit) {
        Query count = bind(Panache.getEntityManager().createNativeQuery(statusCountSql(start != null, end != null)),
                partnerId, status, start, end);
        long total = ((Number) count.getSingleResult()).longValue();
        if (first >= total) {
            return new Found(total, List.of());
        }
        Query page = bind(Panache.getEntityManager().createNativeQuery(statusPageSql(start != null, end != null)),
                partnerId, status, start, end)
                .setParameter("reach", first + limit)
                .setParameter("limit", limit)
                .setParameter("first", first);
        List<UUID> ids = ((List<Object>) page.getResultList()).stream().map(id -> (UUID) id).toList();
        Map<UUID, Request> byId = Request.<Request>list("id in ?1", ids).stream()
                .collect(Collectors.toMap(request -> request.id, Function.identity()));
        return new Found(total, ids.stream().map(byId::get).filter(java.util.Objects::nonNull).toList());
    }

    /**
     * The count of a list by status: the partner's line items with the status plus its requests
     * without items with that stored status. Named parameters partner and status, and start and end
     * when {@code withStart} and {@code withEnd}. Public, as {@link #statusPageSql}: bench/ EXPLAINs
     * the very SQL that {@link #list} runs.
     */
    public static String statusCountSql(boolean withStart, boolean withEnd) {
        return "SELECT (SELECT count(*)" + statusItems(withStart, withEnd) + ") + (SELECT count(*)"
                + statusItemless(withStart, withEnd) + ")";
    }

    /**
     * The ids of a page of a list by status, newest first: the parameters of {@link #statusCountSql}
     * and reach (offset + limit, what each branch reads at most), limit and first (the offset).
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

    private static Query bind(Query query, String partnerId, String status, Instant start, Instant end) {
        query.setParameter("partner", partnerId).setParameter("status", status);
        if (start != null) {
            query.setParameter("start", start);
        }
        if (end != null) {
            query.setParameter("end", end);
        }
        return query;
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

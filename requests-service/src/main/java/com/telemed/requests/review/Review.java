package com.telemed.requests.review;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.id.Ids;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.fulfilment.Fulfilment;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.prescription.PrescriptionViews;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestStatus;
import io.quarkus.panache.common.Parameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The prescriber console's decisions on line items, and what a prescriber does to any request
 * (operations-api.md, "Review"); the request-level decisions of the single-prescription flow are
 * {@link RequestLevelDecisions}. Each runs in one short transaction holding the request's row lock
 * ({@link Acting#lock}), so two decisions on one request run in turn and the second sees the
 * first. No lock or connection is held across a call to catalogue-service ({@link DrugReads}). The
 * acting prescriber becomes the request's assigned prescriber and the deployment's provider id is
 * set when a prescriber first acts. Every change writes its history entry ({@code by} = prescriber
 * id) and exactly the events partner-api.md lists: item names, then the aggregate once decided.
 */
@ApplicationScoped
public class Review {

    private final ReviewEvents events;
    private final DrugReads drugReads;
    private final Bookings bookings;
    private final ReviewConfig config;
    private final Fulfilment fulfilment;
    private final AuditTrail audit;

    public Review(ReviewEvents events, DrugReads drugReads, Bookings bookings, ReviewConfig config, Fulfilment fulfilment,
                  AuditTrail audit) {
        this.events = events;
        this.drugReads = drugReads;
        this.bookings = bookings;
        this.config = config;
        this.fulfilment = fulfilment;
        this.audit = audit;
    }

    /**
     * A validated {@code GET /ops/v1/review/queue}: each filter null when absent. {@code drugId}: the
     * request has an item of that drug; {@code partnerId}: the request's partner; {@code prescriberId}:
     * claimed by that prescriber (the request's assigned prescriber).
     */
    public record QueueQuery(int limit, String drugId, String partnerId, String prescriberId) {
    }

    /** Undecided requests of every partner, oldest first (queued in order), narrowed by the query's filters. */
    @Transactional
    public ReviewViews.Queue queue(QueueQuery query) {
        List<Request> requests = queued(query);
        // The queue spans partners: one entry for the read, no target (the requests are listed, not opened).
        audit.recordRead("queue.read", "queue", null, null);
        var items = LineItem.ofRequests(requests.stream().map(request -> request.id).toList()).stream()
                .collect(Collectors.groupingBy(item -> item.requestId));
        return new ReviewViews.Queue(requests.stream()
                .map(request -> ReviewViews.Reviewed.of(request, items.getOrDefault(request.id, List.of())))
                .toList());
    }

    /**
     * One query whatever the filters: each present filter adds its condition (the drug as an
     * {@code exists} over the request's items). A prescriber id that is no UUID names no prescriber,
     * so nothing matches and nothing is asked.
     */
    private static List<Request> queued(QueueQuery query) {
        StringBuilder where = new StringBuilder("from Request request where request.status = :status");
        Parameters params = Parameters.with("status", RequestStatus.PENDING);
        if (query.partnerId() != null) {
            where.append(" and request.partnerId = :partner");
            params.and("partner", query.partnerId());
        }
        if (query.prescriberId() != null) {
            Optional<UUID> prescriber = Ids.uuid(query.prescriberId());
            if (prescriber.isEmpty()) {
                return List.of();
            }
            where.append(" and request.prescriberId = :prescriber");
            params.and("prescriber", prescriber.get());
        }
        if (query.drugId() != null) {
            where.append(" and exists (select 1 from LineItem item where item.requestId = request.id and item.drugId = :drug)");
            params.and("drug", query.drugId());
        }
        return Request.<Request>find(where + " order by request.createdAt, request.id", params)
                .range(0, query.limit() - 1).list();
    }

    @Transactional
    public ReviewViews.Outcome claim(String requestId, String prescriberId) {
        Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
        acting.recordOnRequest("claimed", null);
        audited(acting, "request.claim");
        return acting.answer(null, null);
    }

    public ReviewViews.Outcome approveItem(String requestId, String itemId, ReviewInput.ItemApproval approval) {
        return drugReads.withDrugs(drugs -> {
            Acting acting = Acting.lock(requestId, approval.prescriberId(), config.providerId());
            LineItem item = acting.item(itemId);
            item.requireUndecided();
            PrescriptionRecord record = acting.approve(item, drugs.of(acting.request(), item.drugId), approval.prescription());
            fulfilment.approved(acting.request(), item, acting.at());
            events.decided(ReviewEvents.ITEM_APPROVED, acting.request(), item, acting.items(), acting.prescriber(), acting.at());
            audited(acting, "item.approve", item);
            return acting.answer(PrescriptionViews.Record.of(record), null);
        });
    }

    @Transactional
    public ReviewViews.Outcome denyItem(String requestId, String itemId, String prescriberId, String reason) {
        Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
        LineItem item = acting.item(itemId);
        item.requireUndecided();
        acting.decide(item, ItemStatus.DENIED, "denied", reason);
        events.decided(ReviewEvents.ITEM_DENIED, acting.request(), item, acting.items(), acting.prescriber(), acting.at());
        audited(acting, "item.deny", item);
        return acting.answer(null, null);
    }

    @Transactional
    public ReviewViews.Outcome requestItemConsultation(String requestId, String itemId, String prescriberId) {
        Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
        LineItem item = acting.item(itemId);
        item.requirePending();
        acting.decide(item, ItemStatus.CALL_REQUESTED, "call_requested", null);
        Bookings.Link link = bookings.issue(acting.request().partnerId, acting.request().id, item.id, acting.prescriber(), acting.at());
        events.item(ReviewEvents.ITEM_CONSULTATION_REQUESTED, acting.request(), item, acting.prescriber(), acting.at());
        events.consultationRequested(acting.request(), item.id, acting.prescriberName(), link.bookingUrl(),
                link.bookingExpiresAt(), acting.prescriber(), acting.at());
        audited(acting, "item.request_consultation", item);
        return acting.answer(null, link);
    }

    /** A prescriber's note (history {@code note_added}, the text as its reason); no event. */
    @Transactional
    public ReviewViews.Outcome addNote(String requestId, String prescriberId, String text) {
        Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
        acting.request().touch(acting.at());
        acting.recordOnRequest("note_added", text);
        audited(acting, "request.add_note");
        return acting.answer(null, null);
    }

    /** Chooses the SKU to sign before approval (history {@code dosage_updated}); no event. */
    public ReviewViews.Outcome updateDosage(String requestId, String itemId, String prescriberId, String skuId) {
        return drugReads.withDrugs(drugs -> {
            Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
            LineItem item = acting.item(itemId);
            item.requireUndecided();
            item.selectSku(PrescriptionSigning.sku(item, drugs.of(acting.request(), item.drugId), skuId).id(), acting.at());
            acting.request().touch(acting.at());
            acting.recordOnItem(item, "dosage_updated");
            audited(acting, "item.update_dosage", item);
            return acting.answer(null, null);
        });
    }

    /** The audit entry of a change to the whole request, in the decision's transaction. */
    private void audited(Acting acting, String action) {
        audit.record(action, "request", acting.request().id.toString(), acting.request().partnerId);
    }

    /** The audit entry of a change to one item, in the decision's transaction. */
    private void audited(Acting acting, String action, LineItem item) {
        audit.record(action, "item", item.id.toString(), acting.request().partnerId);
    }
}

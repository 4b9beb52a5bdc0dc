package com.telemed.requests.review;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.fulfilment.Fulfilment;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.prescription.PrescriptionViews;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;

/**
 * The request-level decisions of the single-prescription flow (operations-api.md, "Review"):
 * approve, deny or complete without a prescription, request a consultation, on a request with at
 * most one item, each answered with the legacy event names ({@code request.approved} ...). A
 * request without items (a consultation request) is decided as a whole: its approval creates its
 * one item from the drug chosen now. The locking, history and event rules are {@link Review}'s.
 */
@ApplicationScoped
public class RequestLevelDecisions {

    private final ReviewEvents events;
    private final DrugReads drugReads;
    private final Bookings bookings;
    private final ReviewConfig config;
    private final Fulfilment fulfilment;
    private final AuditTrail audit;

    public RequestLevelDecisions(ReviewEvents events, DrugReads drugReads, Bookings bookings, ReviewConfig config,
                                 Fulfilment fulfilment, AuditTrail audit) {
        this.events = events;
        this.drugReads = drugReads;
        this.bookings = bookings;
        this.config = config;
        this.fulfilment = fulfilment;
        this.audit = audit;
    }

    /**
     * Request-level approval (legacy {@code request.approved}): on a consultation request it
     * creates the single line item for the drug chosen now, approved; on a request with one item it
     * approves that item.
     */
    ReviewViews.Outcome approve(String requestId, ReviewInput.RequestApproval approval) {
        return drugReads.withDrugs(drugs -> {
            Acting acting = Acting.lock(requestId, approval.prescriberId(), config.providerId());
            Request request = acting.request();
            request.requirePending();
            String drugId = approval.drugId();
            LineItem item;
            DrugLookup drug;
            if (acting.items().isEmpty()) {
                if (drugId == null) {
                    throw ApiException.badRequest("drugId is required to approve a request without items");
                }
                drug = drugs.of(request, drugId);
                item = LineItem.pending(request, drugId, drug, acting.at());
                item.persist();
                acting.items().add(item);
                request.itemAddedByPrescriber();
            } else {
                item = acting.single();
                if (drugId != null && !drugId.equals(item.drugId)) {
                    throw ApiException.badRequest("drugId does not match the request's item: " + drugId);
                }
                item.requireUndecided();
                drug = drugs.of(request, item.drugId);
                request.legacySingleDrug = true;
            }
            PrescriptionRecord record = acting.approve(item, drug, approval.prescription());
            fulfilment.approved(request, item, acting.at());
            events.legacy(ReviewEvents.REQUEST_APPROVED, request, ItemStatus.APPROVED, item.drugName, acting.prescriber(), acting.at());
            audit.record("request.approve", "request", request.id.toString(), request.partnerId);
            return acting.answer(PrescriptionViews.Record.of(record), null);
        });
    }

    /**
     * Request-level denial (legacy {@code request.denied}); also the end of a visit without a
     * prescription ({@code completed_without_rx}). The stored status becomes {@code denied}; no
     * line item is created, and the request's one item, if any, is denied.
     */
    @Transactional
    public ReviewViews.Outcome deny(String requestId, String prescriberId, String reason, boolean completedWithoutRx) {
        Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
        Request request = acting.request();
        request.requirePending();
        String action = completedWithoutRx ? "completed_without_rx" : "denied";
        String drugName = null;
        if (acting.items().isEmpty()) {
            request.denyWithoutItems(acting.at());
            acting.recordOnRequest(action, reason);
        } else {
            LineItem item = acting.single();
            item.requireUndecided();
            acting.decide(item, ItemStatus.DENIED, action, reason);
            drugName = item.drugName;
        }
        events.legacy(ReviewEvents.REQUEST_DENIED, request, ItemStatus.DENIED, drugName, acting.prescriber(), acting.at(),
                completedWithoutRx ? action : null);
        audit.record(completedWithoutRx ? "request.complete_without_rx" : "request.deny", "request", request.id.toString(),
                request.partnerId);
        return acting.answer(null, null);
    }

    /** Request-level consultation (legacy {@code request.consultation_requested}) with a booking link. */
    @Transactional
    public ReviewViews.Outcome requestConsultation(String requestId, String prescriberId) {
        Acting acting = Acting.lock(requestId, prescriberId, config.providerId());
        Request request = acting.request();
        request.requirePending();
        UUID itemId = null;
        String drugName = null;
        if (acting.items().isEmpty()) {
            if (request.consultationOpen) {
                // One open link per consultation: a second would let one consultation book twice.
                throw ApiException.badRequest("Request status is 'call_requested', expected 'pending'");
            }
            request.openConsultation(acting.at());
            acting.recordOnRequest("call_requested", null);
        } else {
            LineItem item = acting.single();
            item.requirePending();
            acting.decide(item, ItemStatus.CALL_REQUESTED, "call_requested", null);
            itemId = item.id;
            drugName = item.drugName;
        }
        Bookings.Link link = bookings.issue(request.partnerId, request.id, itemId, acting.prescriber(), acting.at());
        events.legacy(ReviewEvents.REQUEST_CONSULTATION_REQUESTED, request, ItemStatus.CALL_REQUESTED, drugName,
                acting.prescriber(), acting.at());
        events.consultationRequested(request, itemId, acting.prescriberName(), link.bookingUrl(), link.bookingExpiresAt(),
                acting.prescriber(), acting.at());
        audit.record("request.request_consultation", "request", request.id.toString(), request.partnerId);
        return acting.answer(null, link);
    }
}

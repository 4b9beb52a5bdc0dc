package com.telemed.requests.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.prescriber.Prescriber;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.prescription.PrescriptionSigning;
import com.telemed.requests.prescription.PrescriptionViews;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestEvents;
import com.telemed.requests.request.RequestQueries;
import com.telemed.requests.request.RequestStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The prescriber console's decisions (operations-api.md, "Review"). Each runs in one transaction
 * holding the request's row lock, so two decisions on one request run in turn and the second
 * sees the first. The acting prescriber becomes the request's assigned prescriber and the
 * deployment's provider id is set when a prescriber first acts. Every change writes its history
 * entry ({@code by} = prescriber id) and exactly the events partner-api.md lists: item names for
 * item decisions (then the aggregate once decided), legacy names for request-level ones.
 */
@ApplicationScoped
public class Review {

    static final String PRESCRIBER_NOT_FOUND = "Prescriber not found";
    static final String ITEM_NOT_FOUND = "Line item not found";

    private final RequestEvents events;
    private final CatalogueClient catalogue;
    private final Bookings bookings;
    private final ReviewConfig config;

    public Review(RequestEvents events, CatalogueClient catalogue, Bookings bookings, ReviewConfig config) {
        this.events = events;
        this.catalogue = catalogue;
        this.bookings = bookings;
        this.config = config;
    }

    /** Undecided requests of every partner, oldest first (queued in order). */
    @Transactional
    public ReviewViews.Queue queue(int limit) {
        List<Request> requests = Request.<Request>find("status = ?1 order by createdAt, id", RequestStatus.PENDING)
                .range(0, limit - 1).list();
        var items = LineItem.ofRequests(requests.stream().map(request -> request.id).toList()).stream()
                .collect(java.util.stream.Collectors.groupingBy(item -> item.requestId));
        return new ReviewViews.Queue(requests.stream()
                .map(request -> ReviewViews.Reviewed.of(request, items.getOrDefault(request.id, List.of())))
                .toList());
    }

    @Transactional
    public ReviewViews.Outcome claim(String requestId, String prescriberId) {
        Acting acting = acting(requestId, prescriberId);
        acting.request().prescriberId = acting.prescriber();
        HistoryEntry.record(acting.request().id, null, "claimed", acting.by(), null, acting.at());
        return acting.answer(null, null);
    }

    @Transactional
    public ReviewViews.Outcome approveItem(String requestId, String itemId, String prescriberId, JsonNode prescription) {
        Acting acting = acting(requestId, prescriberId);
        LineItem item = acting.item(itemId);
        requireUndecided(item);
        PrescriptionRecord record = approve(acting, item, drugOf(acting.request(), item.drugId), prescription);
        events.item(RequestEvents.ITEM_APPROVED, acting.request(), item, acting.prescriber(), acting.at());
        events.aggregateIfDecided(acting.request(), acting.items(), acting.prescriber(), acting.at());
        return acting.answer(PrescriptionViews.Record.of(record), null);
    }

    @Transactional
    public ReviewViews.Outcome denyItem(String requestId, String itemId, String prescriberId, String reason) {
        Acting acting = acting(requestId, prescriberId);
        LineItem item = acting.item(itemId);
        requireUndecided(item);
        decide(acting, item, ItemStatus.DENIED, "denied", reason);
        events.item(RequestEvents.ITEM_DENIED, acting.request(), item, acting.prescriber(), acting.at());
        events.aggregateIfDecided(acting.request(), acting.items(), acting.prescriber(), acting.at());
        return acting.answer(null, null);
    }

    @Transactional
    public ReviewViews.Outcome requestItemConsultation(String requestId, String itemId, String prescriberId) {
        Acting acting = acting(requestId, prescriberId);
        LineItem item = acting.item(itemId);
        if (!ItemStatus.PENDING.equals(item.status)) {
            throw ApiException.badRequest("Item status is '" + item.status + "', expected 'pending'");
        }
        decide(acting, item, ItemStatus.CALL_REQUESTED, "call_requested", null);
        Bookings.Link link = bookings.issue(acting.request().partnerId, acting.request().id, item.id, acting.prescriber(), acting.at());
        events.item(RequestEvents.ITEM_CONSULTATION_REQUESTED, acting.request(), item, acting.prescriber(), acting.at());
        events.consultationRequested(acting.request(), item.id, acting.prescriberName(), link.bookingUrl(),
                link.bookingExpiresAt(), acting.prescriber(), acting.at());
        return acting.answer(null, link);
    }

    /**
     * Request-level approval (legacy {@code request.approved}): on a consultation request it
     * creates the single line item for the drug chosen now, approved; on a request with one item it
     * approves that item.
     */
    @Transactional
    public ReviewViews.Outcome approveRequest(String requestId, String prescriberId, String drugId, JsonNode prescription) {
        Acting acting = acting(requestId, prescriberId);
        Request request = acting.request();
        requirePending(request);
        LineItem item;
        if (acting.items().isEmpty()) {
            if (drugId == null) {
                throw ApiException.badRequest("drugId is required to approve a request without items");
            }
            DrugLookup drug = drugOf(request, drugId);
            item = LineItem.pending(request, drugId, drug, acting.at());
            item.persist();
            acting.items().add(item);
            request.itemCount = 1;
            request.consultationOpen = false;
            PrescriptionRecord record = approve(acting, item, drug, prescription);
            events.legacy(RequestEvents.REQUEST_APPROVED, request, ItemStatus.APPROVED, item.drugName, acting.prescriber(), acting.at());
            return acting.answer(PrescriptionViews.Record.of(record), null);
        }
        item = single(acting);
        if (drugId != null && !drugId.equals(item.drugId)) {
            throw ApiException.badRequest("drugId does not match the request's item: " + drugId);
        }
        requireUndecided(item);
        PrescriptionRecord record = approve(acting, item, drugOf(request, item.drugId), prescription);
        events.legacy(RequestEvents.REQUEST_APPROVED, request, ItemStatus.APPROVED, item.drugName, acting.prescriber(), acting.at());
        return acting.answer(PrescriptionViews.Record.of(record), null);
    }

    /**
     * Request-level denial (legacy {@code request.denied}); also the end of a visit without a
     * prescription ({@code completed_without_rx}). The stored status becomes {@code denied}; no
     * line item is created, and the request's one item, if any, is denied.
     */
    @Transactional
    public ReviewViews.Outcome denyRequest(String requestId, String prescriberId, String reason, boolean completedWithoutRx) {
        Acting acting = acting(requestId, prescriberId);
        Request request = acting.request();
        requirePending(request);
        String action = completedWithoutRx ? "completed_without_rx" : "denied";
        String drugName = null;
        if (acting.items().isEmpty()) {
            request.status = ItemStatus.DENIED;
            request.consultationOpen = false;
            request.updatedAt = acting.at();
            HistoryEntry.record(request.id, null, action, acting.by(), reason, acting.at());
        } else {
            LineItem item = single(acting);
            requireUndecided(item);
            decide(acting, item, ItemStatus.DENIED, action, reason);
            drugName = item.drugName;
        }
        events.legacy(RequestEvents.REQUEST_DENIED, request, ItemStatus.DENIED, drugName, acting.prescriber(), acting.at());
        return acting.answer(null, null);
    }

    /** Request-level consultation (legacy {@code request.consultation_requested}) with a booking link. */
    @Transactional
    public ReviewViews.Outcome requestConsultation(String requestId, String prescriberId) {
        Acting acting = acting(requestId, prescriberId);
        Request request = acting.request();
        requirePending(request);
        UUID itemId = null;
        String drugName = null;
        if (acting.items().isEmpty()) {
            request.consultationOpen = true;
            request.updatedAt = acting.at();
            HistoryEntry.record(request.id, null, "call_requested", acting.by(), null, acting.at());
        } else {
            LineItem item = single(acting);
            if (!ItemStatus.PENDING.equals(item.status)) {
                throw ApiException.badRequest("Item status is '" + item.status + "', expected 'pending'");
            }
            decide(acting, item, ItemStatus.CALL_REQUESTED, "call_requested", null);
            itemId = item.id;
            drugName = item.drugName;
        }
        Bookings.Link link = bookings.issue(request.partnerId, request.id, itemId, acting.prescriber(), acting.at());
        events.legacy(RequestEvents.REQUEST_CONSULTATION_REQUESTED, request, ItemStatus.CALL_REQUESTED, drugName,
                acting.prescriber(), acting.at());
        events.consultationRequested(request, itemId, acting.prescriberName(), link.bookingUrl(), link.bookingExpiresAt(),
                acting.prescriber(), acting.at());
        return acting.answer(null, link);
    }

    /** A prescriber's note (history {@code note_added}, the text as its reason); no event. */
    @Transactional
    public ReviewViews.Outcome addNote(String requestId, String prescriberId, String text) {
        Acting acting = acting(requestId, prescriberId);
        acting.request().updatedAt = acting.at();
        HistoryEntry.record(acting.request().id, null, "note_added", acting.by(), text, acting.at());
        return acting.answer(null, null);
    }

    /** Chooses the SKU to sign before approval (history {@code dosage_updated}); no event. */
    @Transactional
    public ReviewViews.Outcome updateDosage(String requestId, String itemId, String prescriberId, String skuId) {
        Acting acting = acting(requestId, prescriberId);
        LineItem item = acting.item(itemId);
        requireUndecided(item);
        DrugLookup.Sku sku = PrescriptionSigning.sku(item, drugOf(acting.request(), item.drugId), skuId);
        item.selectedSkuId = sku.id();
        item.updatedAt = acting.at();
        acting.request().updatedAt = acting.at();
        HistoryEntry.record(acting.request().id, item.id, "dosage_updated", acting.by(), null, acting.at());
        return acting.answer(null, null);
    }

    private PrescriptionRecord approve(Acting acting, LineItem item, DrugLookup drug, JsonNode prescription) {
        PrescriptionRecord record = PrescriptionSigning.sign(acting.request(), item, drug, acting.prescriber(), prescription, acting.at());
        decide(acting, item, ItemStatus.APPROVED, "approved", null);
        return record;
    }

    /** Moves the item, records the history entry and the stored status that follows. */
    private static void decide(Acting acting, LineItem item, String status, String action, String reason) {
        item.status = status;
        item.prescriberId = acting.prescriber();
        item.updatedAt = acting.at();
        Request request = acting.request();
        request.status = RequestStatus.stored(acting.items().stream().map(each -> each.status).toList());
        if (!ItemStatus.CALL_REQUESTED.equals(status)) {
            request.consultationOpen = false;
        }
        request.updatedAt = acting.at();
        HistoryEntry.record(request.id, item.id, action, acting.by(), reason, acting.at());
    }

    private DrugLookup drugOf(Request request, String drugId) {
        DrugLookup drug = catalogue.lookup(request.partnerId, drugId)
                .orElseThrow(() -> ApiException.badRequest("Invalid drugId - drug not found: " + drugId));
        if (!drug.orderable()) {
            throw new ApiException(403, "Partner does not have access to drug: " + drugId);
        }
        return drug;
    }

    private static void requireUndecided(LineItem item) {
        if (!ItemStatus.undecided(item.status)) {
            throw ApiException.badRequest("Item status is '" + item.status + "', expected 'pending' or 'call_requested'");
        }
    }

    private static void requirePending(Request request) {
        if (!RequestStatus.PENDING.equals(request.status)) {
            throw ApiException.badRequest("Request status is '" + request.status + "', expected 'pending'");
        }
    }

    private static LineItem single(Acting acting) {
        if (acting.items().size() != 1) {
            throw ApiException.badRequest("Request-level decisions need a request with at most one item");
        }
        return acting.items().get(0);
    }

    /** The locked request, its items and the acting prescriber, at one instant. */
    private record Acting(Request request, List<LineItem> items, Prescriber prescriberRecord, Instant at) {

        UUID prescriber() {
            return prescriberRecord.id;
        }

        String by() {
            return prescriberRecord.id.toString();
        }

        String prescriberName() {
            return prescriberRecord.name;
        }

        LineItem item(String itemId) {
            return Ids.uuid(itemId).flatMap(id -> items.stream().filter(item -> item.id.equals(id)).findFirst())
                    .orElseThrow(() -> ApiException.notFound(ITEM_NOT_FOUND));
        }

        ReviewViews.Outcome answer(PrescriptionViews.Record record, Bookings.Link booking) {
            return new ReviewViews.Outcome(ReviewViews.Reviewed.of(request, items), record, booking);
        }
    }

    /**
     * Locks the request and resolves the prescriber: the request must exist (404), the
     * prescriber too ({@code 400 Prescriber not found}). The prescriber is now assigned to the
     * request, and the provider organisation recorded if no prescriber acted before.
     */
    private Acting acting(String requestId, String prescriberId) {
        Request request = Ids.uuid(requestId)
                .map(id -> Request.<Request>findById(id, LockModeType.PESSIMISTIC_WRITE))
                .orElse(null);
        if (request == null) {
            throw ApiException.notFound(RequestQueries.NOT_FOUND);
        }
        Prescriber prescriber = Ids.uuid(prescriberId).map(id -> Prescriber.<Prescriber>findById(id)).orElse(null);
        if (prescriber == null) {
            throw ApiException.badRequest(PRESCRIBER_NOT_FOUND);
        }
        request.prescriberId = prescriber.id;
        if (request.providerId == null) {
            request.providerId = config.providerId();
        }
        return new Acting(request, new java.util.ArrayList<>(LineItem.ofRequest(request.id)), prescriber, Timestamps.now());
    }
}

package com.telemed.requests.review;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.prescriber.Prescriber;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.prescription.PrescriptionViews;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestQueries;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One decision in progress: the request under its row lock, its items and the acting prescriber,
 * at one instant. Every decision, item-level or request-level, starts with {@link #lock} and
 * changes the request through {@link #decide}, so each change writes its history entry.
 */
final class Acting {

    static final String PRESCRIBER_NOT_FOUND = "Prescriber not found";
    static final String ITEM_NOT_FOUND = "Line item not found";

    private final Request request;
    private final List<LineItem> items;
    private final Prescriber prescriber;
    private final Instant at;

    private Acting(Request request, List<LineItem> items, Prescriber prescriber, Instant at) {
        this.request = request;
        this.items = items;
        this.prescriber = prescriber;
        this.at = at;
    }

    /**
     * Locks the request and resolves the prescriber: the request must exist (404), the prescriber
     * too ({@code 400 Prescriber not found}). The prescriber is now assigned to the request, and
     * the provider organisation recorded if no prescriber acted before. In a transaction.
     */
    static Acting lock(String requestId, String prescriberId, String providerId) {
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
        request.actedOnBy(prescriber.id, providerId);
        return new Acting(request, new ArrayList<>(LineItem.ofRequest(request.id)), prescriber, Timestamps.now());
    }

    Request request() {
        return request;
    }

    /** The request's items, in order; an item a decision adds joins them. */
    List<LineItem> items() {
        return items;
    }

    Instant at() {
        return at;
    }

    UUID prescriber() {
        return prescriber.id;
    }

    /** The history entries' {@code by}. */
    String by() {
        return prescriber.id.toString();
    }

    String prescriberName() {
        return prescriber.name;
    }

    /** The request's item by id: {@code 404 Line item not found} for another request's, an unknown or a malformed one. */
    LineItem item(String itemId) {
        return Ids.uuid(itemId).flatMap(id -> items.stream().filter(item -> item.id.equals(id)).findFirst())
                .orElseThrow(() -> ApiException.notFound(ITEM_NOT_FOUND));
    }

    /** The request's one item, for a request-level decision: {@code 400} when it has several. */
    LineItem single() {
        if (items.size() != 1) {
            throw ApiException.badRequest("Request-level decisions need a request with at most one item");
        }
        return items.get(0);
    }

    /** Moves the item, the request's stored status after it, and records the history entry. */
    void decide(LineItem item, String status, String action, String reason) {
        item.decide(status, prescriber.id, at);
        request.followItems(items, status, at);
        HistoryEntry.record(request.id, item.id, action, by(), reason, at);
    }

    /** Signs the item's prescription and approves it. */
    PrescriptionRecord approve(LineItem item, DrugLookup drug, ReviewInput.Prescription prescription) {
        PrescriptionRecord record = PrescriptionSigning.sign(request, item, drug, prescriber.id, prescription, at);
        decide(item, ItemStatus.APPROVED, "approved", null);
        return record;
    }

    /** A change of the item that decides nothing (the dosage chosen), with its history entry. */
    void recordOnItem(LineItem item, String action) {
        HistoryEntry.record(request.id, item.id, action, by(), null, at);
    }

    /** A change of the request itself (no item), with its history entry. */
    void recordOnRequest(String action, String reason) {
        HistoryEntry.record(request.id, null, action, by(), reason, at);
    }

    /** The console's answer: the request as it is now, with the prescription signed or the booking link issued, if any. */
    ReviewViews.Outcome answer(PrescriptionViews.Record record, Bookings.Link booking) {
        return new ReviewViews.Outcome(ReviewViews.Reviewed.of(request, items), record, booking);
    }
}

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
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The prescriber console's decisions (operations-api.md, "Review"). Each runs in one short
 * transaction holding the request's row lock, so two decisions on one request run in turn and the
 * second sees the first. No lock or connection is held across a call to catalogue-service: a
 * decision that needs a drug ({@link #withDrugs}) reads it with no transaction open, then decides
 * under the lock, checking the request as it is then. The acting prescriber becomes the request's
 * assigned prescriber and the deployment's provider id is set when a prescriber first acts. Every change writes its history
 * entry ({@code by} = prescriber id) and exactly the events partner-api.md lists: item names for
 * item decisions (then the aggregate once decided), legacy names for request-level ones.
 */
@ApplicationScoped
public class Review {

    static final String PRESCRIBER_NOT_FOUND = "Prescriber not found";
    static final String ITEM_NOT_FOUND = "Line item not found";
    /** Runs of one decision at most (see {@link #withDrugs}). */
    private static final int MAX_RUNS = 4;

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

    public ReviewViews.Outcome approveItem(String requestId, String itemId, String prescriberId, JsonNode prescription) {
        return withDrugs(drugs -> {
            Acting acting = acting(requestId, prescriberId);
            LineItem item = acting.item(itemId);
            requireUndecided(item);
            PrescriptionRecord record = approve(acting, item, drugs.of(acting.request(), item.drugId), prescription);
            events.item(RequestEvents.ITEM_APPROVED, acting.request(), item, acting.prescriber(), acting.at());
            events.aggregateIfDecided(acting.request(), acting.items(), acting.prescriber(), acting.at());
            return acting.answer(PrescriptionViews.Record.of(record), null);
        });
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
    public ReviewViews.Outcome approveRequest(String requestId, String prescriberId, String drugId, JsonNode prescription) {
        return withDrugs(drugs -> {
            Acting acting = acting(requestId, prescriberId);
            Request request = acting.request();
            requirePending(request);
            LineItem item;
            if (acting.items().isEmpty()) {
                if (drugId == null) {
                    throw ApiException.badRequest("drugId is required to approve a request without items");
                }
                DrugLookup drug = drugs.of(request, drugId);
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
            PrescriptionRecord record = approve(acting, item, drugs.of(request, item.drugId), prescription);
            events.legacy(RequestEvents.REQUEST_APPROVED, request, ItemStatus.APPROVED, item.drugName, acting.prescriber(), acting.at());
            return acting.answer(PrescriptionViews.Record.of(record), null);
        });
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
    public ReviewViews.Outcome updateDosage(String requestId, String itemId, String prescriberId, String skuId) {
        return withDrugs(drugs -> {
            Acting acting = acting(requestId, prescriberId);
            LineItem item = acting.item(itemId);
            requireUndecided(item);
            DrugLookup.Sku sku = PrescriptionSigning.sku(item, drugs.of(acting.request(), item.drugId), skuId);
            item.selectedSkuId = sku.id();
            item.updatedAt = acting.at();
            acting.request().updatedAt = acting.at();
            HistoryEntry.record(acting.request().id, item.id, "dosage_updated", acting.by(), null, acting.at());
            return acting.answer(null, null);
        });
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

    /**
     * Runs a decision that needs catalogue data in a short transaction of its own, never calling
     * catalogue-service inside it. The first run decides with no drug read: when it reaches one
     * ({@link Drugs#of}), it rolls back, the drug is read with no transaction open (no connection
     * held, the row lock released), and the decision runs again from the start. That run locks and
     * reads the request afresh, so whatever changed meanwhile (another prescriber's decision, a
     * cancel) is answered exactly as it would be had this call come after it. The checks before
     * the drug come in the same order as ever: a request or item error is answered without asking
     * the catalogue. A drug id only changes with the request's state, so the runs settle at once;
     * {@link #MAX_RUNS} bounds them all the same.
     */
    private ReviewViews.Outcome withDrugs(Function<Drugs, ReviewViews.Outcome> decision) {
        Drugs drugs = new Drugs();
        for (int run = 1; ; run++) {
            try {
                return QuarkusTransaction.requiringNew().call(() -> decision.apply(drugs));
            } catch (NotRead missing) {
                if (run >= MAX_RUNS) {
                    throw new IllegalStateException("decision still needs another drug after " + run + " runs");
                }
                drugs.read(missing);
            }
        }
    }

    /** Drugs read from catalogue-service for one decision, by partner and drug id (an unknown drug is read as empty). */
    private final class Drugs {

        private final Map<List<String>, Optional<DrugLookup>> read = new HashMap<>();

        /** The drug, or the decision's {@code 400}/{@code 403} answer; {@link NotRead} when it was not read yet. */
        DrugLookup of(Request request, String drugId) {
            Optional<DrugLookup> lookup = read.get(List.of(request.partnerId, drugId));
            if (lookup == null) {
                throw new NotRead(request.partnerId, drugId);
            }
            DrugLookup drug = lookup.orElseThrow(() -> ApiException.badRequest("Invalid drugId - drug not found: " + drugId));
            if (!drug.orderable()) {
                throw new ApiException(403, "Partner does not have access to drug: " + drugId);
            }
            return drug;
        }

        /** The catalogue call, made with no transaction open. */
        void read(NotRead missing) {
            read.put(List.of(missing.partnerId, missing.drugId), catalogue.lookup(missing.partnerId, missing.drugId));
        }
    }

    /** Rolls the decision's transaction back so the drug can be read outside it. */
    private static final class NotRead extends RuntimeException {

        final String partnerId;
        final String drugId;

        NotRead(String partnerId, String drugId) {
            super(null, null, false, false);
            this.partnerId = partnerId;
            this.drugId = drugId;
        }
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

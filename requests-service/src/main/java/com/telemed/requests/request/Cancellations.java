package com.telemed.requests.request;

import com.telemed.common.audit.AuditTrail;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.prescription.PrescriptionRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Withdrawing items before they reach a pharmacy: the partner's {@code cancel} and the service's
 * {@code withdraw} (same effects, another {@code by}), and the partner's hard delete.
 */
@ApplicationScoped
public class Cancellations {

    public static final String DEFAULT_REASON = "cancelled by partner";
    static final String NO_ITEMS = "Request has no line items (legacy single-drug request not supported here)";
    /** The skip reason of an item whose transmission is in flight: the pharmacy may be accepting it right now. */
    static final String IN_FLIGHT = "already transmitted to the pharmacy (order pending)";
    static final String NOT_PENDING = "Only pending requests can be deleted. This request has already been processed.";

    private final RequestEvents events;
    private final AuditTrail audit;

    public Cancellations(RequestEvents events, AuditTrail audit) {
        this.events = events;
        this.audit = audit;
    }

    @JsonPropertyOrder({"itemId", "previousStatus", "prescriptionId"})
    public record Cancelled(UUID itemId, String previousStatus, UUID prescriptionId) {
    }

    @JsonPropertyOrder({"itemId", "status", "reason"})
    public record Skipped(UUID itemId, String status, String reason) {
    }

    @JsonPropertyOrder({"success", "requestId", "cancelled", "skipped", "aggregateStatus"})
    public record Outcome(boolean success, UUID requestId, List<Cancelled> cancelled, List<Skipped> skipped,
                          String aggregateStatus) {
    }

    /**
     * Cancels the request's items (or those of {@code itemIds}) that are not yet transmitted.
     * Idempotent: already cancelled items come back under {@code skipped}. Each cancelled item's
     * record is voided and {@code item.canceled} fires, then the aggregate event when it holds
     * ({@code request.all_canceled} once no live item remains); nothing fires when nothing was
     * cancelled.
     */
    @Transactional
    public Outcome cancel(String partnerId, String requestId, String reason, List<String> itemIds, String by) {
        Request request = Ids.uuid(requestId).flatMap(id -> Request.lockOwned(partnerId, id))
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        List<LineItem> items = LineItem.lockOfRequest(request.id);
        if (items.isEmpty()) {
            throw ApiException.badRequest(NO_ITEMS);
        }
        Set<String> only = itemIds == null ? null : Set.copyOf(itemIds);
        Map<UUID, PrescriptionRecord> records = PrescriptionRecord.ofRequest(request.id).stream()
                .filter(record -> record.lineItemId != null)
                .collect(Collectors.toMap(record -> record.lineItemId, Function.identity(), (older, newer) -> newer));
        Instant now = Timestamps.now();
        List<Cancelled> cancelled = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        List<LineItem> cancelledItems = new ArrayList<>();
        for (LineItem item : items) {
            if (only != null && !only.contains(item.id.toString())) {
                continue;
            }
            String refusal = refusal(item, now);
            if (refusal != null) {
                skipped.add(new Skipped(item.id, item.status, refusal));
                continue;
            }
            PrescriptionRecord record = records.get(item.id);
            cancelled.add(new Cancelled(item.id, item.status, record == null ? null : record.id));
            item.status = ItemStatus.CANCELLED;
            item.transmitDueAt = null;
            item.updatedAt = now;
            if (record != null) {
                record.voidFor(reason, now);
            }
            HistoryEntry.record(request.id, item.id, "cancelled", by, reason, now);
            cancelledItems.add(item);
        }
        if (!cancelled.isEmpty()) {
            request.status = RequestStatus.stored(items.stream().map(item -> item.status).toList());
            request.updatedAt = now;
            for (LineItem item : cancelledItems) {
                events.itemCanceled(request, item, now);
            }
            events.aggregateIfDecided(request, items, now);
        }
        return new Outcome(true, request.id, cancelled, skipped, request.status);
    }

    /**
     * {@code POST /ops/v1/requests/:id/withdraw}: the service withdraws every untransmitted item, as the
     * partner's cancel does ({@code by} = service), audited in the same transaction.
     */
    @Transactional
    public Outcome withdraw(String partnerId, String requestId, String reason) {
        Outcome outcome = cancel(partnerId, requestId, reason, null, HistoryEntry.SERVICE);
        audit.record("request.withdraw", "request", outcome.requestId().toString(), partnerId);
        return outcome;
    }

    /** Why an item stays; an item whose transmission is in flight counts as transmitted (its order reference is not known yet). */
    private static String refusal(LineItem item, Instant now) {
        if (item.transmitted()) {
            return "already transmitted to the pharmacy (order " + item.pharmacyOrderId + ")";
        }
        if (item.transmissionInFlight(now)) {
            return IN_FLIGHT;
        }
        return switch (item.status) {
            case ItemStatus.CANCELLED -> "already cancelled";
            case ItemStatus.DENIED -> "item is denied";
            case ItemStatus.COMPLETED -> "item is completed";
            default -> null;
        };
    }

    /** Hard delete of a request whose stored status is still pending (a call_requested item is pending underneath). */
    @Transactional
    public void delete(String partnerId, String requestId) {
        Request request = Ids.uuid(requestId).flatMap(id -> Request.lockOwned(partnerId, id))
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        if (!RequestStatus.PENDING.equals(request.status)) {
            throw ApiException.badRequest(NOT_PENDING);
        }
        request.delete();
    }
}

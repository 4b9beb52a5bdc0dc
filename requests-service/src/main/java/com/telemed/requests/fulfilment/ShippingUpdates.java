package com.telemed.requests.fulfilment;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A pharmacy's shipping updates on the line item it fills (operations-api.md, "Pharmacy
 * integration"; partner-api.md, "Delivery events"). The item's {@code deliveryStatus} takes the
 * update's {@code status}; {@code trackingNumber} and {@code shipCarrier} change when sent (an
 * update without them keeps the known ones). The first update with {@code shipped: true} sends
 * {@code item.shipped}; every other update that changes something sends {@code delivery.update}.
 * An update repeated by the pharmacy changes nothing and sends nothing. The item status stays as
 * it is. Under the request's row lock, like every writer of a request.
 */
@ApplicationScoped
public class ShippingUpdates {

    static final String ORDER_NOT_FOUND = "Order not found";

    /** {@code event} is null when the update repeated what the item already showed. */
    @JsonPropertyOrder({"success", "requestId", "itemId", "event"})
    public record Applied(boolean success, UUID requestId, UUID itemId, String event) {
    }

    private final FulfilmentEvents events;
    private final AuditTrail audit;

    public ShippingUpdates(FulfilmentEvents events, AuditTrail audit) {
        this.events = events;
        this.audit = audit;
    }

    /**
     * An update; {@code pharmacy}, when the caller is a pharmacy, the one whose orders it may update
     * (an order of another pharmacy is not found, exactly as an unknown one); empty for the operator
     * key, which may update any order.
     */
    @Transactional
    public Applied apply(ShippingUpdateInput update, Optional<String> pharmacy) {
        UUID requestId = Panache.getEntityManager()
                .createQuery("select item.requestId from LineItem item where item.pharmacyOrderId = :order", UUID.class)
                .setParameter("order", update.pharmacyOrderId())
                .getResultStream().findFirst()
                .orElseThrow(() -> ApiException.notFound(ORDER_NOT_FOUND));
        Request request = Request.findById(requestId, LockModeType.PESSIMISTIC_WRITE);
        LineItem item = request == null ? null : LineItem.<LineItem>find("pharmacyOrderId = ?1", update.pharmacyOrderId())
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
        if (item == null || pharmacy.isPresent() && !pharmacy.get().equals(item.pharmacyId)) {
            throw ApiException.notFound(ORDER_NOT_FOUND);
        }
        // The actor is the pharmacy (or the operator key); the target the item whose order it is (an id of ours:
        // the pharmacy's own reference is free text).
        audit.record("order.update", "order", item.id.toString(), request.partnerId);
        String tracking = update.trackingNumber() != null ? update.trackingNumber() : item.trackingNumber;
        String carrier = update.shipCarrier() != null ? update.shipCarrier() : item.shipCarrier;
        boolean firstShipped = Boolean.TRUE.equals(update.shipped()) && item.shippedAt == null;
        boolean changed = !Objects.equals(update.status(), item.deliveryStatus) || !Objects.equals(tracking, item.trackingNumber)
                || !Objects.equals(carrier, item.shipCarrier);
        if (!changed && !firstShipped) {
            return new Applied(true, request.id, item.id, null);
        }
        Instant now = Timestamps.now();
        item.deliveryStatus = update.status();
        item.trackingNumber = tracking;
        item.shipCarrier = carrier;
        item.updatedAt = now;
        if (firstShipped) {
            item.shippedAt = now;
        }
        request.touch(now);
        String event = firstShipped ? FulfilmentEvents.ITEM_SHIPPED : FulfilmentEvents.DELIVERY_UPDATE;
        HistoryEntry.record(request.id, item.id, firstShipped ? "shipped" : "delivery_updated", HistoryEntry.SERVICE,
                update.status(), now);
        Integer daysSupply = PrescriptionRecord.currentFor(item.id)
                .map(record -> record.clinical.daysSupply()).orElse(null);
        events.delivery(event, request, item, daysSupply, now);
        return new Applied(true, request.id, item.id, event);
    }
}

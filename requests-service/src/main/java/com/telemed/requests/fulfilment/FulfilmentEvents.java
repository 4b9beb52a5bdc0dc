package com.telemed.requests.fulfilment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventSubject;
import com.telemed.common.json.Timestamps;
import com.telemed.common.outbox.Outbox;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestEnvelopes;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * What fulfilment publishes on {@code care.events} ({@code request.RequestEnvelopes}: key = request id, in the
 * change's transaction): an item's deliveries. Before issue #43 they went through {@code request.RequestEvents}.
 */
@ApplicationScoped
public class FulfilmentEvents {

    public static final String ITEM_SHIPPED = "item.shipped";
    public static final String DELIVERY_UPDATE = "delivery.update";

    private final Outbox outbox;

    public FulfilmentEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * A delivery event ({@code item.shipped}, {@code delivery.update}): {@code status} is the
     * pharmacy's free-text label; tracking number, carrier and {@code daysSupply} (from the
     * prescription record) are omitted when unknown.
     */
    public void delivery(String event, Request request, LineItem item, Integer daysSupply, Instant at) {
        ObjectNode webhook = RequestEnvelopes.payload(event, request)
                .put("memberId", request.memberId.toString())
                .put("itemId", item.id.toString())
                .put("status", item.deliveryStatus);
        if (item.trackingNumber != null) {
            webhook.put("trackingNumber", item.trackingNumber);
        }
        if (item.shipCarrier != null) {
            webhook.put("shipCarrier", item.shipCarrier);
        }
        if (daysSupply != null) {
            webhook.put("daysSupply", daysSupply.intValue());
        }
        webhook.put("timestamp", Timestamps.format(at));
        ObjectNode data = RequestEnvelopes.data(request, null).put("itemId", item.id.toString()).put("deliveryStatus", item.deliveryStatus);
        RequestEnvelopes.publish(outbox, event, request, EventSubject.item(request.id.toString(), item.id.toString()), null, at, data, webhook);
    }
}

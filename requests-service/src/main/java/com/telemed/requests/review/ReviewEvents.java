package com.telemed.requests.review;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventSubject;
import com.telemed.common.json.Timestamps;
import com.telemed.common.outbox.Outbox;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestEnvelopes;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What the prescriber's decisions publish on {@code care.events} ({@code request.RequestEnvelopes}: key = request id,
 * in the decision's transaction, under the request's row lock): the item events, then the aggregate once every live
 * item is decided; the legacy request-level events of the single-prescription flow; and the booking link of a
 * consultation. Before issue #43 they went through {@code request.RequestEvents}, which keeps what the request
 * feature publishes itself (a cancel and its aggregate).
 */
@ApplicationScoped
public class ReviewEvents {

    public static final String ITEM_APPROVED = "item.approved";
    public static final String ITEM_DENIED = "item.denied";
    public static final String ITEM_CONSULTATION_REQUESTED = "item.consultation_requested";
    public static final String REQUEST_APPROVED = "request.approved";
    public static final String REQUEST_DENIED = "request.denied";
    public static final String REQUEST_CONSULTATION_REQUESTED = "request.consultation_requested";
    public static final String APPOINTMENT_CONSULTATION_REQUESTED = "appointment.consultation_requested";

    private final Outbox outbox;

    public ReviewEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * An item decided ({@code item.approved}, {@code item.denied}), then the aggregate event when every live item of
     * the request ({@code items}) is decided.
     */
    public void decided(String event, Request request, LineItem item, List<LineItem> items, UUID prescriberId, Instant at) {
        RequestEnvelopes.item(outbox, event, request, item, prescriberId, at);
        RequestEnvelopes.aggregateIfDecided(outbox, request, items, prescriberId, at);
    }

    /** An item event alone: {@code item.consultation_requested}, whose booking link follows ({@link #consultationRequested}). */
    public void item(String event, Request request, LineItem item, UUID prescriberId, Instant at) {
        RequestEnvelopes.item(outbox, event, request, item, prescriberId, at);
    }

    /** A legacy request-level event: the item payload without {@code itemId}. */
    public void legacy(String event, Request request, String status, String drugName, UUID prescriberId, Instant at) {
        legacy(event, request, status, drugName, prescriberId, at, null);
    }

    /**
     * A legacy request-level event whose {@code data.action} names the history action when the
     * event alone does not say it: {@code completed_without_rx} on the {@code request.denied} that
     * ends a visit without a prescription (messaging posts a different system message for it).
     */
    public void legacy(String event, Request request, String status, String drugName, UUID prescriberId, Instant at,
                       String action) {
        ObjectNode webhook = RequestEnvelopes.payload(event, request)
                .put("status", status)
                .put("patientName", RequestEnvelopes.patientName(request))
                .put("prescriptionName", RequestEnvelopes.orNoDrug(drugName))
                .put("timestamp", Timestamps.format(at));
        ObjectNode data = RequestEnvelopes.data(request, prescriberId).put("status", status);
        if (action != null) {
            data.put("action", action);
        }
        RequestEnvelopes.publish(outbox, event, request, EventSubject.request(request.id.toString()), prescriberId, at, data, webhook);
    }

    /** {@code appointment.consultation_requested}: a booking link was issued. */
    public void consultationRequested(Request request, UUID itemId, String prescriberName, String bookingUrl,
                                      Instant bookingExpiresAt, UUID prescriberId, Instant at) {
        ObjectNode webhook = RequestEnvelopes.payload(APPOINTMENT_CONSULTATION_REQUESTED, request)
                .put("memberId", request.memberId.toString())
                .put("patientName", RequestEnvelopes.patientName(request))
                .put("patientEmail", request.memberEmail)
                .put("prescriberName", prescriberName)
                .put("bookingUrl", bookingUrl)
                .put("bookingExpiresAt", Timestamps.format(bookingExpiresAt))
                .put("timestamp", Timestamps.format(at));
        EventSubject subject = itemId == null ? EventSubject.request(request.id.toString())
                : EventSubject.item(request.id.toString(), itemId.toString());
        RequestEnvelopes.publish(outbox, APPOINTMENT_CONSULTATION_REQUESTED, request, subject, prescriberId, at,
                RequestEnvelopes.data(request, prescriberId), webhook);
    }
}

package com.telemed.requests.request;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventSubject;
import com.telemed.common.json.Timestamps;
import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The {@code care.events} of request transitions (the envelope: {@link RequestEnvelopes}; appointments and deliveries
 * publish through their own {@code appointment.AppointmentEvents}, {@code fulfilment.FulfilmentEvents}), written to the outbox in the transaction of the
 * change; key = request id, so one request's events stay in order (its writers hold the request's
 * row lock). {@code webhook} is exactly the partner payload of partner-api.md ("Payloads");
 * {@code data} is for internal consumers (messaging posts system messages, billing starts
 * billing on approvals): ids and statuses, no patient data.
 */
@ApplicationScoped
public class RequestEvents {

    public static final String TOPIC = "care.events";

    public static final String ITEM_APPROVED = "item.approved";
    public static final String ITEM_DENIED = "item.denied";
    public static final String ITEM_CONSULTATION_REQUESTED = "item.consultation_requested";
    public static final String ITEM_CANCELED = "item.canceled";
    public static final String ALL_APPROVED = "request.all_approved";
    public static final String ALL_DENIED = "request.all_denied";
    public static final String ALL_RESOLVED = "request.all_resolved";
    public static final String ALL_CANCELED = "request.all_canceled";
    public static final String REQUEST_APPROVED = "request.approved";
    public static final String REQUEST_DENIED = "request.denied";
    public static final String REQUEST_CONSULTATION_REQUESTED = "request.consultation_requested";
    public static final String APPOINTMENT_CONSULTATION_REQUESTED = "appointment.consultation_requested";

    /** {@code prescriptionName} when no drug resolved. */
    static final String NO_DRUG = "Medication";

    private final Outbox outbox;

    public RequestEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * An item event ({@code item.approved}, {@code item.denied}, {@code item.consultation_requested},
     * {@code item.canceled}). {@code prescriptionName} is the drug's display name, except on
     * {@code item.canceled} where the contract makes it the drug id.
     */
    public void item(String event, Request request, LineItem item, UUID prescriberId, Instant at) {
        String prescriptionName = ITEM_CANCELED.equals(event) ? orNoDrug(item.drugId) : orNoDrug(item.drugName);
        ObjectNode webhook = payload(event, request)
                .put("itemId", item.id.toString())
                .put("status", item.status)
                .put("patientName", patientName(request))
                .put("prescriptionName", prescriptionName)
                .put("timestamp", Timestamps.format(at));
        ObjectNode data = data(request, prescriberId).put("itemId", item.id.toString()).put("status", item.status)
                .put("drugId", item.drugId);
        publish(event, request, EventSubject.item(request.id.toString(), item.id.toString()), prescriberId, at, data, webhook);
    }

    /**
     * After an item event: the aggregate event once every live (non-cancelled) item is decided, or
     * {@code request.all_canceled} when every item is cancelled. Sent again whenever it holds after
     * another item event; never for a request without items.
     */
    public void aggregateIfDecided(Request request, List<LineItem> items, UUID prescriberId, Instant at) {
        List<String> statuses = items.stream().map(item -> item.status).toList();
        if (items.isEmpty()) {
            return;
        }
        List<LineItem> live = items.stream().filter(item -> !ItemStatus.CANCELLED.equals(item.status)).toList();
        String event;
        String status;
        if (live.isEmpty()) {
            event = ALL_CANCELED;
            status = "all_canceled";
        } else if (!RequestStatus.decided(statuses)) {
            return;
        } else if (live.stream().allMatch(item -> ItemStatus.DENIED.equals(item.status))) {
            event = ALL_DENIED;
            status = "all_denied";
        } else if (live.stream().noneMatch(item -> ItemStatus.DENIED.equals(item.status))) {
            event = ALL_APPROVED;
            status = "all_approved";
        } else {
            event = ALL_RESOLVED;
            status = "partial";
        }
        String drugIds = live.stream().map(item -> item.drugId == null ? "" : item.drugId).collect(Collectors.joining(","));
        ObjectNode webhook = payload(event, request)
                .put("status", status)
                .put("patientName", patientName(request))
                .put("prescriptionName", drugIds)
                .put("timestamp", Timestamps.format(at));
        publish(event, request, EventSubject.request(request.id.toString()), prescriberId, at,
                data(request, prescriberId).put("status", status), webhook);
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
        ObjectNode webhook = payload(event, request)
                .put("status", status)
                .put("patientName", patientName(request))
                .put("prescriptionName", orNoDrug(drugName))
                .put("timestamp", Timestamps.format(at));
        ObjectNode data = data(request, prescriberId).put("status", status);
        if (action != null) {
            data.put("action", action);
        }
        publish(event, request, EventSubject.request(request.id.toString()), prescriberId, at, data, webhook);
    }

    /** {@code appointment.consultation_requested}: a booking link was issued. */
    public void consultationRequested(Request request, UUID itemId, String prescriberName, String bookingUrl,
                                      Instant bookingExpiresAt, UUID prescriberId, Instant at) {
        ObjectNode webhook = payload(APPOINTMENT_CONSULTATION_REQUESTED, request)
                .put("memberId", request.memberId.toString())
                .put("patientName", patientName(request))
                .put("patientEmail", request.memberEmail)
                .put("prescriberName", prescriberName)
                .put("bookingUrl", bookingUrl)
                .put("bookingExpiresAt", Timestamps.format(bookingExpiresAt))
                .put("timestamp", Timestamps.format(at));
        EventSubject subject = itemId == null ? EventSubject.request(request.id.toString())
                : EventSubject.item(request.id.toString(), itemId.toString());
        publish(APPOINTMENT_CONSULTATION_REQUESTED, request, subject, prescriberId, at, data(request, prescriberId), webhook);
    }

    private static ObjectNode payload(String event, Request request) {
        return RequestEnvelopes.payload(event, request);
    }

    private static ObjectNode data(Request request, UUID prescriberId) {
        return RequestEnvelopes.data(request, prescriberId);
    }

    private static String patientName(Request request) {
        return request.memberName == null ? "" : request.memberName;
    }

    private static String orNoDrug(String name) {
        return name == null || name.isBlank() ? NO_DRUG : name;
    }

    private void publish(String event, Request request, EventSubject subject, UUID prescriberId, Instant at,
                         ObjectNode data, ObjectNode webhook) {
        RequestEnvelopes.publish(outbox, event, request, subject, prescriberId, at, data, webhook);
    }
}

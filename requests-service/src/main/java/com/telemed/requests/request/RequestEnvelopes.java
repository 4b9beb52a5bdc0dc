package com.telemed.requests.request;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.json.Timestamps;
import com.telemed.common.outbox.Outbox;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The envelope every {@code care.events} event about a request shares, whichever feature publishes it (its own
 * {@code *Events}: {@link RequestEvents}, {@code review.ReviewEvents}, {@code appointment.AppointmentEvents},
 * {@code fulfilment.FulfilmentEvents}): key = request id, the subject completed with the member (and the prescriber
 * when one acted), written to the outbox in the caller's transaction. The partner payload starts with {@link #payload},
 * {@code data} with {@link #data}. The item event and the aggregate that may follow it ({@link #item},
 * {@link #aggregateIfDecided}) are built here too: a cancel ({@link RequestEvents}) and a prescriber's decision
 * ({@code review.ReviewEvents}) both publish them. No bean: each feature's {@code *Events} publishes through it
 * with its own outbox.
 */
public final class RequestEnvelopes {

    /** {@code prescriptionName} when no drug resolved. */
    static final String NO_DRUG = "Medication";

    private RequestEnvelopes() {
    }

    /** The partner payload's first fields: {@code event}, {@code requestId}. */
    public static ObjectNode payload(String event, Request request) {
        return JsonNodeFactory.instance.objectNode().put("event", event).put("requestId", request.id.toString());
    }

    /** {@code data}'s first fields: {@code requestId}, {@code memberId}, {@code prescriberId} (null when none acted). */
    public static ObjectNode data(Request request, UUID prescriberId) {
        ObjectNode data = JsonNodeFactory.instance.objectNode()
                .put("requestId", request.id.toString())
                .put("memberId", request.memberId.toString());
        data.put("prescriberId", prescriberId == null ? null : prescriberId.toString());
        return data;
    }

    /**
     * An item event ({@code item.approved}, {@code item.denied}, {@code item.consultation_requested},
     * {@code item.canceled}). {@code prescriptionName} is the drug's display name, except on
     * {@code item.canceled} where the contract makes it the drug id.
     */
    public static void item(Outbox outbox, String event, Request request, LineItem item, UUID prescriberId, Instant at) {
        String prescriptionName = RequestEvents.ITEM_CANCELED.equals(event) ? orNoDrug(item.drugId) : orNoDrug(item.drugName);
        ObjectNode webhook = payload(event, request)
                .put("itemId", item.id.toString())
                .put("status", item.status)
                .put("patientName", patientName(request))
                .put("prescriptionName", prescriptionName)
                .put("timestamp", Timestamps.format(at));
        ObjectNode data = data(request, prescriberId).put("itemId", item.id.toString()).put("status", item.status)
                .put("drugId", item.drugId);
        publish(outbox, event, request, EventSubject.item(request.id.toString(), item.id.toString()), prescriberId, at, data, webhook);
    }

    /**
     * After an item event: the aggregate event once every live (non-cancelled) item is decided, or
     * {@code request.all_canceled} when every item is cancelled. Sent again whenever it holds after
     * another item event; never for a request without items.
     */
    public static void aggregateIfDecided(Outbox outbox, Request request, List<LineItem> items, UUID prescriberId, Instant at) {
        List<String> statuses = items.stream().map(item -> item.status).toList();
        if (items.isEmpty()) {
            return;
        }
        List<LineItem> live = items.stream().filter(item -> !ItemStatus.CANCELLED.equals(item.status)).toList();
        String event;
        String status;
        if (live.isEmpty()) {
            event = RequestEvents.ALL_CANCELED;
            status = "all_canceled";
        } else if (!RequestStatus.decided(statuses)) {
            return;
        } else if (live.stream().allMatch(item -> ItemStatus.DENIED.equals(item.status))) {
            event = RequestEvents.ALL_DENIED;
            status = "all_denied";
        } else if (live.stream().noneMatch(item -> ItemStatus.DENIED.equals(item.status))) {
            event = RequestEvents.ALL_APPROVED;
            status = "all_approved";
        } else {
            event = RequestEvents.ALL_RESOLVED;
            status = "partial";
        }
        String drugIds = live.stream().map(item -> item.drugId == null ? "" : item.drugId).collect(Collectors.joining(","));
        ObjectNode webhook = payload(event, request)
                .put("status", status)
                .put("patientName", patientName(request))
                .put("prescriptionName", drugIds)
                .put("timestamp", Timestamps.format(at));
        publish(outbox, event, request, EventSubject.request(request.id.toString()), prescriberId, at,
                data(request, prescriberId).put("status", status), webhook);
    }

    /** The payloads' {@code patientName}: the member's name at creation, empty when none was kept. */
    public static String patientName(Request request) {
        return request.memberName == null ? "" : request.memberName;
    }

    /** A payload's {@code prescriptionName}: the name, or {@code Medication} when no drug resolved. */
    public static String orNoDrug(String name) {
        return name == null || name.isBlank() ? NO_DRUG : name;
    }

    public static void publish(Outbox outbox, String event, Request request, EventSubject subject, UUID prescriberId,
                               Instant at, ObjectNode data, ObjectNode webhook) {
        EventSubject full = subject.withMember(request.memberId.toString());
        if (prescriberId != null) {
            full = full.withPrescriber(prescriberId.toString());
        }
        outbox.publish(RequestEvents.TOPIC, request.id.toString(), new EventEnvelope(UUID.randomUUID().toString(), event,
                request.partnerId, at, full, data, webhook));
    }
}

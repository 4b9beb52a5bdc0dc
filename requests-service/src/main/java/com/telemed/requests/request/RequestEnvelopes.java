package com.telemed.requests.request;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.outbox.Outbox;
import java.time.Instant;
import java.util.UUID;

/**
 * The envelope every {@code care.events} event about a request shares, whichever feature publishes it (its own
 * {@code *Events}: {@link RequestEvents}, {@code appointment.AppointmentEvents}, {@code fulfilment.FulfilmentEvents}):
 * key = request id, the subject completed with the member (and the prescriber when one acted), written to the outbox
 * in the caller's transaction. The partner payload starts with {@link #payload}, {@code data} with {@link #data}.
 * No bean: each feature's {@code *Events} publishes through it with its own outbox.
 */
public final class RequestEnvelopes {

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

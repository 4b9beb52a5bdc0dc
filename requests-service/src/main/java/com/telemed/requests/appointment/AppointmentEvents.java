package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventSubject;
import com.telemed.common.json.Timestamps;
import com.telemed.common.outbox.Outbox;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestEnvelopes;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * What the appointment feature publishes on {@code care.events} ({@code request.RequestEnvelopes}: key = request id,
 * in the change's transaction): the events after the booking link. Before issue #43 they went through
 * {@code request.RequestEvents}.
 */
@ApplicationScoped
public class AppointmentEvents {

    public static final String APPOINTMENT_BOOKED = "appointment.booked";
    public static final String APPOINTMENT_RESCHEDULED = "appointment.rescheduled";
    public static final String APPOINTMENT_CANCELLED = "appointment.cancelled";
    public static final String APPOINTMENT_REMINDER = "appointment.reminder";

    private final Outbox outbox;

    public AppointmentEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * An appointment event ({@code appointment.booked}, {@code rescheduled}, {@code cancelled}, {@code reminder}):
     * {@code event}, {@code requestId}, {@code memberId}, the appointment's own fields in the contract's order
     * ({@link AppointmentPayloads}), {@code timestamp}.
     */
    public void appointment(String event, Request request, UUID itemId, ObjectNode fields, UUID prescriberId, Instant at) {
        ObjectNode webhook = RequestEnvelopes.payload(event, request).put("memberId", request.memberId.toString());
        webhook.setAll(fields);
        webhook.put("timestamp", Timestamps.format(at));
        ObjectNode data = RequestEnvelopes.data(request, prescriberId).put("appointmentId", fields.path("appointmentId").asText());
        EventSubject subject = itemId == null ? EventSubject.request(request.id.toString())
                : EventSubject.item(request.id.toString(), itemId.toString());
        RequestEnvelopes.publish(outbox, event, request, subject, prescriberId, at, data, webhook);
    }
}

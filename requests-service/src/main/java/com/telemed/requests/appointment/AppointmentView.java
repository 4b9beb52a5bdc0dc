package com.telemed.requests.appointment;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.UUID;

/** {@code {appointment: {...}}}: what the booking side and the console read of an appointment (no patient data). */
public record AppointmentView(Body appointment) {

    @JsonPropertyOrder({"id", "requestId", "itemId", "memberId", "prescriberId", "status", "startTime", "endTime",
            "durationMinutes", "timezone", "cancelledBy", "cancellationReason", "createdAt", "updatedAt"})
    public record Body(UUID id, UUID requestId, UUID itemId, UUID memberId, UUID prescriberId, String status, Instant startTime,
                       Instant endTime, int durationMinutes, String timezone, String cancelledBy, String cancellationReason,
                       Instant createdAt, Instant updatedAt) {
    }

    static AppointmentView of(Appointment appointment) {
        return new AppointmentView(new Body(appointment.id, appointment.requestId, appointment.itemId, appointment.memberId,
                appointment.prescriberId, appointment.status, appointment.startTime, appointment.endTime,
                appointment.durationMinutes, appointment.timezone, appointment.cancelledBy, appointment.cancellationReason,
                appointment.createdAt, appointment.updatedAt));
    }
}

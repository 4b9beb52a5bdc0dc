package com.telemed.requests.appointment;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** {@code {appointment: {...}}}: what the booking side and the console read of an appointment (no patient data); {@link Listing} the console's list. */
public record AppointmentView(Body appointment) {

    @JsonPropertyOrder({"id", "requestId", "itemId", "memberId", "prescriberId", "status", "startTime", "endTime",
            "durationMinutes", "timezone", "cancelledBy", "cancellationReason", "createdAt", "updatedAt"})
    public record Body(UUID id, UUID requestId, UUID itemId, UUID memberId, UUID prescriberId, String status, Instant startTime,
                       Instant endTime, int durationMinutes, String timezone, String cancelledBy, String cancellationReason,
                       Instant createdAt, Instant updatedAt) {
    }

    /**
     * One appointment of {@code GET /ops/v1/appointments}: the fields of {@link Body}, in its order, and
     * the patient's name as last read from members-service at booking or rescheduling (null when it knew
     * no name), which the console's list shows.
     */
    @JsonPropertyOrder({"id", "requestId", "itemId", "memberId", "prescriberId", "status", "startTime", "endTime",
            "durationMinutes", "timezone", "cancelledBy", "cancellationReason", "createdAt", "updatedAt", "patientName"})
    public record Listed(UUID id, UUID requestId, UUID itemId, UUID memberId, UUID prescriberId, String status, Instant startTime,
                         Instant endTime, int durationMinutes, String timezone, String cancelledBy, String cancellationReason,
                         Instant createdAt, Instant updatedAt, String patientName) {

        static Listed of(Appointment appointment) {
            return new Listed(appointment.id, appointment.requestId, appointment.itemId, appointment.memberId,
                    appointment.prescriberId, appointment.status, appointment.startTime, appointment.endTime,
                    appointment.durationMinutes, appointment.timezone, appointment.cancelledBy, appointment.cancellationReason,
                    appointment.createdAt, appointment.updatedAt, appointment.patientName);
        }
    }

    /** {@code {appointments: [...]}}: the list, by start time. */
    public record Listing(List<Listed> appointments) {
    }

    static AppointmentView of(Appointment appointment) {
        return new AppointmentView(new Body(appointment.id, appointment.requestId, appointment.itemId, appointment.memberId,
                appointment.prescriberId, appointment.status, appointment.startTime, appointment.endTime,
                appointment.durationMinutes, appointment.timezone, appointment.cancelledBy, appointment.cancellationReason,
                appointment.createdAt, appointment.updatedAt));
    }
}

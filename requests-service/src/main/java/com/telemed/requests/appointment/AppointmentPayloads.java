package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.json.Timestamps;

/**
 * The appointment-specific fields of the appointment events (partner-api.md, "Appointment
 * events"), in the contract's order; {@code AppointmentEvents.appointment} wraps them with
 * {@code event}, {@code requestId}, {@code memberId} and {@code timestamp}. Fields that do not
 * apply are omitted, never null.
 */
final class AppointmentPayloads {

    private AppointmentPayloads() {
    }

    /** booked, rescheduled: the times, zone and duration. */
    static ObjectNode scheduled(Appointment appointment) {
        return times(people(appointment), appointment).put("durationMinutes", appointment.durationMinutes);
    }

    /** reminder: the times and zone. */
    static ObjectNode reminder(Appointment appointment) {
        return times(people(appointment), appointment);
    }

    /** cancelled: who cancelled, and why when given. */
    static ObjectNode cancelled(Appointment appointment) {
        ObjectNode fields = people(appointment).put("cancelledBy", appointment.cancelledBy);
        if (appointment.cancellationReason != null) {
            fields.put("cancellationReason", appointment.cancellationReason);
        }
        return fields;
    }

    private static ObjectNode people(Appointment appointment) {
        return JsonNodeFactory.instance.objectNode()
                .put("appointmentId", appointment.id.toString())
                .put("patientName", orEmpty(appointment.patientName))
                .put("patientEmail", orEmpty(appointment.patientEmail))
                .put("prescriberName", orEmpty(appointment.prescriberName));
    }

    private static ObjectNode times(ObjectNode fields, Appointment appointment) {
        return fields.put("startTime", Timestamps.format(appointment.startTime))
                .put("endTime", Timestamps.format(appointment.endTime))
                .put("timezone", appointment.timezone);
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}

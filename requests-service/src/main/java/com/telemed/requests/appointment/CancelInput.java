package com.telemed.requests.appointment;

/** {@code POST /ops/v1/appointments/:id/cancel}, bound after {@link AppointmentSchemas#CANCEL}. */
public record CancelInput(String cancelledBy, String reason) {
}

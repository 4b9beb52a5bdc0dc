package com.telemed.requests.appointment;

/** {@code POST /ops/v1/bookings/:token/appointment/cancel}, bound after {@link AppointmentSchemas#LINK_CANCEL}. */
public record LinkCancelInput(String reason) {
}

package com.telemed.requests.appointment;

/** {@code POST /ops/v1/bookings/:token/appointment/reschedule}, bound after {@link AppointmentSchemas#linkReschedule}. */
public record LinkRescheduleInput(String startTime, String timezone) {
}

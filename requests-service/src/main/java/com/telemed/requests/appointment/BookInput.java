package com.telemed.requests.appointment;

/** {@code POST /ops/v1/bookings/:token/appointment} (and the sandbox patient's booking), bound after {@link AppointmentSchemas#book}. */
public record BookInput(String startTime, int durationMinutes, String timezone) {
}

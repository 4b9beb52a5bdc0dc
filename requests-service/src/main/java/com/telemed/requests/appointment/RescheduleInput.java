package com.telemed.requests.appointment;

/** {@code POST /ops/v1/appointments/:id/reschedule}, bound after {@link AppointmentSchemas#reschedule}. */
public record RescheduleInput(String startTime, Integer durationMinutes, String timezone) {
}

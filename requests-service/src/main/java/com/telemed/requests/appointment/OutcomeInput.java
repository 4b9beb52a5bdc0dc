package com.telemed.requests.appointment;

/** {@code POST /ops/v1/appointments/:id/outcome}, bound after {@link AppointmentSchemas#OUTCOME}. */
public record OutcomeInput(String outcome) {
}

package com.telemed.requests.appointment;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;

/**
 * {@code {booking: {status, expiresAt, prescriberName, slotMinutes, appointment}}}: what the booking
 * page shows of a link. The prescriber by name only, never their email; the appointment as
 * {@link AppointmentView} writes it, or null.
 */
public record BookingView(Body booking) {

    public static final String OPEN = "open";
    public static final String BOOKED = "booked";
    public static final String CANCELLED = "cancelled";
    public static final String CLOSED = "closed";

    @JsonPropertyOrder({"status", "expiresAt", "prescriberName", "slotMinutes", "appointment"})
    public record Body(String status, Instant expiresAt, String prescriberName, Integer slotMinutes, AppointmentView.Body appointment) {
    }
}

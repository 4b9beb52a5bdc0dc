package com.telemed.requests.appointment;

import com.telemed.common.error.ApiException;
import com.telemed.requests.availability.Availabilities;
import com.telemed.requests.availability.AvailabilityViews;
import com.telemed.requests.availability.SlotRange;
import com.telemed.requests.availability.WeeklySchedule;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.consultation.Consultation;
import com.telemed.requests.request.Request;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * What the booking page reads with a link's token (the patient's side of a consultation): the
 * link's state with its appointment, and the consulting prescriber's open slots. A link with
 * something booked answers after its expiry too (the patient still sees, moves or cancels the
 * appointment); one with nothing booked answers {@code 410} once expired.
 */
@ApplicationScoped
public class BookingLinks {

    private final Bookings bookings;
    private final Availabilities availabilities;
    private final Clock clock;

    public BookingLinks(Bookings bookings, Availabilities availabilities, Clock clock) {
        this.bookings = bookings;
        this.availabilities = availabilities;
        this.clock = clock;
    }

    /**
     * {@code GET /ops/v1/bookings/:token}: {@code booked} or {@code cancelled} with the link's
     * appointment (a held or missed one is {@code booked}: its own status says which), else
     * {@code open} while the consultation is asked, else {@code closed}.
     */
    public BookingView booking(String token) {
        Consultation link = link(token);
        return QuarkusTransaction.requiringNew().call(() -> {
            Optional<Appointment> appointment = appointment(link);
            String status;
            if (appointment.isPresent()) {
                status = Appointment.CANCELLED.equals(appointment.get().status) ? BookingView.CANCELLED : BookingView.BOOKED;
            } else {
                Request request = Request.findById(link.requestId);
                status = request != null && Appointments.consultationOpen(request, link.itemId) ? BookingView.OPEN : BookingView.CLOSED;
            }
            Integer slotMinutes = availabilities.schedule(link.prescriberId).map(WeeklySchedule::slotMinutes).orElse(null);
            return new BookingView(new BookingView.Body(status, link.expiresAt, Appointments.prescriberName(link.prescriberId),
                    slotMinutes, appointment.map(AppointmentView::of).map(AppointmentView::appointment).orElse(null)));
        });
    }

    /** {@code GET /ops/v1/bookings/:token/slots}: the link's prescriber's open slots in the range. */
    public AvailabilityViews.Slots slots(String token, SlotRange range) {
        Consultation link = link(token);
        return QuarkusTransaction.requiringNew().call(() -> {
            appointment(link);
            return new AvailabilityViews.Slots(availabilities.openSlots(link.prescriberId, range));
        });
    }

    private Consultation link(String token) {
        return bookings.byToken(token).orElseThrow(() -> ApiException.notFound(Appointments.LINK_NOT_FOUND));
    }

    /** The link's appointment; none: {@code 410 Booking link has expired} once the link expired. */
    private Optional<Appointment> appointment(Consultation link) {
        Optional<Appointment> appointment = Appointment.<Appointment>find("consultationId", link.id).firstResultOptional();
        Instant now = clock.instant();
        if (appointment.isEmpty() && !link.expiresAt.isAfter(now)) {
            throw new ApiException(410, Appointments.LINK_EXPIRED);
        }
        return appointment;
    }
}

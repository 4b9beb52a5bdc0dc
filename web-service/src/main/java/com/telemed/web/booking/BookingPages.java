package com.telemed.web.booking;

import com.telemed.web.page.ErrorView;
import com.telemed.web.page.PageError;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import com.telemed.web.requests.RequestsApi;
import com.telemed.web.requests.RequestsClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The booking page's reads and changes (interfaces39.md C): what the link shows, booking a slot,
 * moving and cancelling the appointment, each through requests-service's booking endpoints (A.4 to
 * A.7). What each refusal means for the patient is decided here; the resource only answers.
 */
@ApplicationScoped
public class BookingPages {

    /** How far ahead the page offers slots. */
    static final Duration WINDOW = Duration.ofDays(14);

    static final String SLOT_TAKEN = "Slot no longer available";
    static final String TAKEN_MESSAGE = "Sorry, that time has just been taken. Choose another time.";
    static final String NOT_CHOSEN_MESSAGE = "Choose a time";
    static final String NOT_OPEN_MESSAGE = "That time cannot be booked. Choose one of the times shown.";

    /** requests-service's 409s other than a taken slot, in the patient's words. */
    private static final Map<String, String> CONFLICTS = Map.of(
            "Booking link has already been used", "This booking link has already been used to book an appointment.",
            "Consultation is no longer open", "The consultation this link was for is no longer open.",
            "Appointment has already started", "Your appointment has already started, so it can no longer be changed.",
            "Nothing booked with this link", "Nothing is booked with this link yet.");

    private final RequestsClient requests;
    private final Clock clock;

    public BookingPages(RequestsClient requests, Clock clock) {
        this.requests = requests;
        this.clock = clock;
    }

    /** The page as the link stands; {@code tz} as the address gave it (none: a first visit). */
    public BookingView view(String token, String tz) {
        return view(token, TimeZones.valid(tz), null, null).detectingZone(tz == null || tz.isEmpty());
    }

    /** The outcome of a change: where to send the browser, or the page again with why it failed and its status. */
    public record Outcome(String location, int status, BookingView page) {

        static Outcome redirect(String location) {
            return new Outcome(location, 303, null);
        }

        static Outcome again(int status, BookingView page) {
            return new Outcome(null, status, page);
        }
    }

    public Outcome book(String token, String startTime, String tzParam) {
        String tz = TimeZones.valid(tzParam);
        if (blank(startTime)) {
            return Outcome.again(400, view(token, tz, NOT_CHOSEN_MESSAGE, null));
        }
        RequestsApi.Booking booking = booking(token);
        if (!"open".equals(booking.status()) || booking.slotMinutes() == null) {
            // Booked from another tab, closed meanwhile, or no hours at all: the page says what the link is now.
            return booking.slotMinutes() == null && "open".equals(booking.status())
                    ? Outcome.again(409, view(token, tz, TAKEN_MESSAGE, startTime))
                    : Outcome.redirect(pagePath(token, tz));
        }
        try {
            requests.book(token, startTime, booking.slotMinutes(), tz);
            return Outcome.redirect(pagePath(token, tz));
        } catch (Refusal refusal) {
            return refused(token, tz, startTime, refusal);
        }
    }

    public Outcome reschedule(String token, String startTime, String tzParam) {
        String tz = TimeZones.valid(tzParam);
        if (blank(startTime)) {
            return Outcome.again(400, view(token, tz, NOT_CHOSEN_MESSAGE, null));
        }
        try {
            requests.reschedule(token, startTime, tz);
            return Outcome.redirect(pagePath(token, tz));
        } catch (Refusal refusal) {
            return refused(token, tz, startTime, refusal);
        }
    }

    public Outcome cancel(String token, String tzParam) {
        String tz = TimeZones.valid(tzParam);
        try {
            requests.cancel(token);
            return Outcome.redirect(pagePath(token, tz));
        } catch (Refusal refusal) {
            if (refusal.status() == 400) {
                throw new PageError(ErrorView.forStatus(400));
            }
            return refused(token, tz, null, refusal);
        }
    }

    /** {@code /book/<token>?tz=<zone>}: the only things a booking page's address carries. */
    static String pagePath(String token, String tz) {
        return path(token) + "?tz=" + Pages.encode(tz);
    }

    static String path(String token) {
        return "/book/" + Pages.encode(token);
    }

    private Outcome refused(String token, String tz, String startTime, Refusal refusal) {
        if (refusal.is(409, SLOT_TAKEN)) {
            return Outcome.again(409, view(token, tz, TAKEN_MESSAGE, null));
        }
        if (refusal.status() == 400) {
            return Outcome.again(400, view(token, tz, NOT_OPEN_MESSAGE, startTime));
        }
        if (refusal.status() == 409) {
            String message = refusal.error() != null && refusal.error().startsWith("Appointment is ")
                    ? "This appointment is no longer booked, so it cannot be changed."
                    : CONFLICTS.getOrDefault(refusal.error(), "Things changed while you were on the page.");
            throw new PageError(new ErrorView(409, "This could not be done", message, pagePath(token, tz), "See your booking"));
        }
        throw linkError(refusal);
    }

    private BookingView view(String token, String tz, String error, String chosen) {
        RequestsApi.Booking booking = booking(token);
        ZoneId zone = ZoneId.of(tz);
        Instant now = clock.instant();
        RequestsApi.Appointment appointment = booking.appointment();
        String state = switch (booking.status() == null ? "" : booking.status()) {
            case "open" -> "open";
            case "booked" -> appointment == null ? "closed"
                    : !"booked".equals(appointment.status()) ? ("cancelled".equals(appointment.status()) ? "cancelled" : "over")
                    : appointment.startTime().isAfter(now) ? "booked" : "started";
            case "cancelled" -> "cancelled";
            default -> "closed";
        };
        List<SlotDays.SlotDay> days = List.of();
        if (state.equals("open") || state.equals("booked")) {
            days = SlotDays.group(slots(token, now), zone, chosen);
        }
        BookingView.AppointmentTimes times = appointment == null || state.equals("open") ? null
                : new BookingView.AppointmentTimes(SlotDays.DAY.format(appointment.startTime().atZone(zone)),
                        SlotDays.range(appointment.startTime(), appointment.endTime(), zone), TimeZones.label(tz));
        return new BookingView(state, title(state), booking.prescriberName(), path(token), tz, TimeZones.options(tz), times, days,
                error, false);
    }

    private static String title(String state) {
        return switch (state) {
            case "open" -> "Book your appointment";
            case "booked" -> "Your appointment is booked";
            case "started" -> "Your appointment has started";
            case "over" -> "This appointment is over";
            case "cancelled" -> "Your appointment is cancelled";
            default -> "This booking link can no longer be used";
        };
    }

    private RequestsApi.Booking booking(String token) {
        try {
            return requests.booking(token);
        } catch (Refusal refusal) {
            throw linkError(refusal);
        }
    }

    /** The slots of the next 14 days; none when the link no longer offers any. */
    private List<RequestsApi.Slot> slots(String token, Instant now) {
        Instant from = now.truncatedTo(ChronoUnit.SECONDS);
        try {
            return requests.slots(token, from, from.plus(WINDOW));
        } catch (Refusal refusal) {
            return List.of();
        }
    }

    private static PageError linkError(Refusal refusal) {
        if (refusal.status() == 410) {
            return new PageError(410, "This booking link has expired",
                    "Booking links last a few days. Ask the service that sent you this link for a new one.");
        }
        if (refusal.status() == 404) {
            return new PageError(404, "This booking link is not valid",
                    "Check that you copied the whole link from the message you received. If it still does not work, ask the service that sent it for a new one.");
        }
        return new PageError(ErrorView.forStatus(refusal.status()));
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}

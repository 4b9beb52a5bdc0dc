package com.telemed.web.console.appointment;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleError;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A prescriber's appointments and weekly hours (interfaces.md D2; people-and-pages.md, "The console":
 * "my upcoming ones in my time zone; mark held or no-show; my weekly availability"). The appointments
 * are requests-service's list for the prescriber in person (from now, 31 days), shown in the zone of
 * their availability ({@code UTC} without one); each booked one takes an outcome. The weekly hours are
 * their availability, read and replaced as a whole. Prescribers only (an account naming a prescriber);
 * every form checks its token, then the role, before the gateway is asked.
 */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class AppointmentPageResource {

    static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");
    static final ZoneId UTC = ZoneId.of("UTC");
    /** {@code done} of the address after an outcome, and its notice. */
    static final Map<String, String> OUTCOME_NOTICES = Map.of("held", "Marked held", "no-show", "Marked no-show");
    static final Map<String, String> STATUSES = Map.of("booked", "Booked", "cancelled", "Cancelled", "held", "Held", "no_show", "No-show");
    static final String NOT_FOUND_TITLE = "Appointment not found";

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template appointments;
    private final Template availability;

    public AppointmentPageResource(OpsClient ops, SignedIn signedIn, @Location("console-appointments.html") Template appointments,
                                   @Location("console-availability.html") Template availability) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.appointments = appointments;
        this.availability = availability;
    }

    @GET
    @Path("/appointments")
    public Response appointments(@QueryParam("done") String done) {
        ConsoleSession session = prescriber();
        return appointmentsPage(200, session, done == null ? null : OUTCOME_NOTICES.get(done), null);
    }

    /** {@code outcome} {@code held} or {@code no_show} (the form's hidden field, sent as it is): {@code 303} back with the notice. */
    @POST
    @Path("/appointments/{id}/outcome")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response outcome(@PathParam("id") String id, MultivaluedMap<String, String> form) {
        signedIn.checkForm(form.getFirst("csrf"));
        ConsoleSession session = prescriber();
        String outcome = form.getFirst("outcome");
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        if (outcome != null) {
            body.put("outcome", outcome);
        }
        try {
            ops.outcome(session.token(), id, body);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw new ConsoleError(404, NOT_FOUND_TITLE, "There is no appointment with this id. Go back to your appointments.");
            }
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            return appointmentsPage(refusal.status(), session, null, message(refusal));
        }
        return Pages.seeOther("/console/appointments?done=" + ("no_show".equals(outcome) ? "no-show" : "held"));
    }

    @GET
    @Path("/availability")
    public Response availability(@QueryParam("done") String done) {
        ConsoleSession session = prescriber();
        Optional<OpsApi.Availability> stored = stored(session);
        List<AvailabilityView.Day> days = new ArrayList<>();
        boolean several = false;
        for (int day = 1; day <= 7; day++) {
            int weekday = day;
            List<OpsApi.Interval> intervals = stored.map(OpsApi.Availability::weekly).orElse(List.of()).stream()
                    .filter(interval -> interval.weekday() == weekday).toList();
            several |= intervals.size() > 1;
            days.add(day(day, intervals.isEmpty() ? "" : intervals.get(0).start(),
                    intervals.isEmpty() ? "" : AvailabilityForms.shownEnd(intervals.get(0).end()), Map.of()));
        }
        String zone = stored.map(OpsApi.Availability::timezone).orElse("");
        String slot = stored.map(OpsApi.Availability::slotMinutes).map(String::valueOf).orElse("");
        return availabilityPage(200, new AvailabilityView("saved".equals(done) ? "Saved" : null, null,
                several ? "Some days have more than one interval: this form shows the first of each, and saving keeps only what it shows." : null,
                stored.isEmpty(), timezone(zone, null), days, slot(slot, null), options(slot), session.csrf()));
    }

    /** The form as the weekly hours, replacing them: {@code 303} back with {@code Saved}; the API's issues next to their fields. */
    @POST
    @Path("/availability")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response saveAvailability(MultivaluedMap<String, String> form) {
        signedIn.checkForm(form.getFirst("csrf"));
        ConsoleSession session = prescriber();
        AvailabilityForms.Put put = AvailabilityForms.body(form);
        try {
            ops.putAvailability(session.token(), session.prescriberId(), put.body());
        } catch (Refusal refusal) {
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            Map<String, String> errors = refusal.issues().isEmpty() ? Map.of("", message(refusal))
                    : AvailabilityForms.errors(refusal.issues(), put.weekdays());
            List<AvailabilityView.Day> days = new ArrayList<>();
            for (int day = 1; day <= 7; day++) {
                days.add(day(day, AvailabilityForms.value(form, "start-" + day), AvailabilityForms.value(form, "end-" + day), errors));
            }
            String slot = AvailabilityForms.value(form, "slotMinutes");
            return availabilityPage(refusal.status(), new AvailabilityView(null, errors.get(""), null, false,
                    timezone(AvailabilityForms.value(form, "timezone"), errors.get("timezone")), days, slot(slot, errors.get("slotMinutes")),
                    options(slot), session.csrf()));
        }
        return Pages.seeOther("/console/availability?done=saved");
    }

    /** A prescriber in person (an account that names one): otherwise the 403 page, nothing asked. */
    private ConsoleSession prescriber() {
        ConsoleSession session = signedIn.require(Role.PRESCRIBER);
        if (!session.prescriber()) {
            throw ConsoleError.forbidden();
        }
        return session;
    }

    private Response appointmentsPage(int status, ConsoleSession session, String notice, String error) {
        ZoneId zone = stored(session).map(OpsApi.Availability::timezone).flatMap(AppointmentPageResource::zone).orElse(UTC);
        List<AppointmentsView.Row> rows = ops.appointments(session.token()).stream().map(appointment -> row(appointment, zone)).toList();
        return Pages.html(status, appointments.data("page", new AppointmentsView(zone.getId(), notice, error, rows, session.csrf()))
                .data("nav", signedIn.nav()));
    }

    private Response availabilityPage(int status, AvailabilityView view) {
        return Pages.html(status, availability.data("page", view).data("nav", signedIn.nav()));
    }

    /** The prescriber's weekly hours; none before a first save ({@code 404 Availability not set}). */
    private Optional<OpsApi.Availability> stored(ConsoleSession session) {
        try {
            return Optional.ofNullable(ops.availability(session.token(), session.prescriberId()));
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                return Optional.empty();
            }
            throw refusal;
        }
    }

    private static Optional<ZoneId> zone(String id) {
        try {
            return Optional.of(ZoneId.of(id));
        } catch (DateTimeException | NullPointerException unknown) {
            return Optional.empty();
        }
    }

    private static AppointmentsView.Row row(OpsApi.Appointment appointment, ZoneId zone) {
        return new AppointmentsView.Row(appointment.id(), when(appointment.startTime(), appointment.endTime(), zone), zone.getId(),
                appointment.patientName() == null || appointment.patientName().isBlank() ? "-" : appointment.patientName(),
                STATUSES.getOrDefault(appointment.status(), String.valueOf(appointment.status())), "booked".equals(appointment.status()));
    }

    private static String when(Instant start, Instant end, ZoneId zone) {
        if (start == null) {
            return "";
        }
        String from = DAY_TIME.format(start.atZone(zone));
        return end == null ? from : from + " to " + TIME.format(end.atZone(zone));
    }

    /** A refusal's text, or its first issue's message. */
    private static String message(Refusal refusal) {
        if (refusal.error() != null) {
            return refusal.error();
        }
        return refusal.issues().stream().map(issue -> issue.path("message").asText("")).filter(text -> !text.isEmpty()).findFirst()
                .orElse("This could not be done. Reload the page and try again.");
    }

    private static AvailabilityView.Day day(int day, String start, String end, Map<String, String> errors) {
        String name = AvailabilityForms.WEEKDAYS.get(day - 1);
        return new AvailabilityView.Day(day, name,
                new AvailabilityView.Field("start-" + day, name + " starts", start == null ? "" : start, errors.get("start-" + day)),
                new AvailabilityView.Field("end-" + day, name + " ends", end == null ? "" : end, errors.get("end-" + day)));
    }

    private static AvailabilityView.Field timezone(String value, String error) {
        return new AvailabilityView.Field("timezone", "Time zone", value, error);
    }

    private static AvailabilityView.Field slot(String value, String error) {
        return new AvailabilityView.Field("slotMinutes", "Slot length (minutes)", value, error);
    }

    private static List<AvailabilityView.Option> options(String selected) {
        return AvailabilityForms.SLOT_MINUTES.stream().map(value -> new AvailabilityView.Option(value, value.equals(selected.strip()))).toList();
    }
}

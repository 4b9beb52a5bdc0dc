package com.telemed.web.console.admin;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleError;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.ErrorView;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.DayOfWeek;
import java.time.format.TextStyle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prescribers (interfaces.md E2; operations-api.md, "Prescribers"): create one ({@code POST /ops/v1/prescribers},
 * then {@code 303} to its page, which shows its new id), find one by id, and its page with its weekly hours
 * read-only ({@code GET /ops/v1/prescribers/{id}/availability}). Administrators only: the form token, then the
 * role, before anything is asked of the gateway.
 */
@Path("/console/prescribers")
@Produces(MediaType.TEXT_HTML)
public class PrescribersResource {

    static final List<String> FIELDS = List.of("name", "email");

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template prescribers;
    private final Template prescriber;

    public PrescribersResource(OpsClient ops, SignedIn signedIn, @Location("console-prescribers.html") Template prescribers,
                               @Location("console-prescriber.html") Template prescriber) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.prescribers = prescribers;
        this.prescriber = prescriber;
    }

    /** The create and find forms; the find form's {@code prescriberId}: {@code 303} to that prescriber's page. */
    @GET
    public Response page(@QueryParam("prescriberId") String prescriberId) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String find = AdminForms.blankToNull(prescriberId);
        if (find != null) {
            return Pages.seeOther("/console/prescribers/" + Pages.encode(find));
        }
        return prescribers(200, new PrescribersView("", "", Map.of(), null, session.csrf()));
    }

    /** {@code {"name", "email"}} as typed: the gateway's own checks answer. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@FormParam("csrf") String csrf, @FormParam("name") String name, @FormParam("email") String email) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("name", AdminForms.nullToEmpty(name));
        body.put("email", AdminForms.nullToEmpty(email));
        OpsApi.Prescriber created;
        try {
            created = ops.createPrescriber(session.token(), body);
        } catch (Refusal refusal) {
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            Map<String, String> errors = new LinkedHashMap<>(AdminForms.errors(refusal, FIELDS, Map.of()));
            String error = errors.remove("");
            return prescribers(refusal.status(), new PrescribersView(AdminForms.nullToEmpty(name), AdminForms.nullToEmpty(email), errors, error,
                    session.csrf()));
        }
        if (created == null || created.id() == null) {
            throw PartnersResource.unavailable();
        }
        return Pages.seeOther("/console/prescribers/" + Pages.encode(created.id()) + "?done=created");
    }

    @GET
    @Path("/{id}")
    public Response prescriber(@PathParam("id") String id, @QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        OpsApi.Prescriber found;
        try {
            found = ops.prescriber(session.token(), id);
        } catch (Refusal refusal) {
            if (refusal.status() == 404 || refusal.status() == 400) {
                throw notFound();
            }
            throw refusal;
        }
        if (found == null || found.id() == null) {
            throw PartnersResource.unavailable();
        }
        PrescriberView.Hours hours = hours(session, found.id());
        PrescriberView view = new PrescriberView(found.id(), AdminForms.nullToEmpty(found.name()), AdminForms.nullToEmpty(found.email()),
                PartnersResource.time(found.createdAt()), "created".equals(done) ? "Prescriber created" : null, hours);
        return Pages.html(200, prescriber.data("page", view).data("nav", signedIn.nav()));
    }

    /** The weekly hours, or null when none are set ({@code 404 Availability not set}). */
    private PrescriberView.Hours hours(ConsoleSession session, String id) {
        OpsApi.Availability availability;
        try {
            availability = ops.availability(session.token(), id);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                return null;
            }
            throw refusal;
        }
        if (availability == null) {
            return null;
        }
        List<PrescriberView.Interval> weekly = availability.weekly() == null ? List.of() : availability.weekly().stream()
                .map(interval -> new PrescriberView.Interval(weekday(interval.weekday()), AdminForms.nullToEmpty(interval.start()),
                        AdminForms.nullToEmpty(interval.end())))
                .toList();
        return new PrescriberView.Hours(AdminForms.nullToEmpty(availability.timezone()),
                availability.slotMinutes() == null ? "" : availability.slotMinutes().toString(), weekly);
    }

    private static String weekday(int weekday) {
        return weekday >= 1 && weekday <= 7 ? DayOfWeek.of(weekday).getDisplayName(TextStyle.FULL, Locale.ENGLISH) : String.valueOf(weekday);
    }

    static ConsoleError notFound() {
        return new ConsoleError(new ErrorView(404, "Prescriber not found", "There is no prescriber with this id. Check the id and find it again.",
                "/console/prescribers", "Find a prescriber"));
    }

    private Response prescribers(int status, PrescribersView view) {
        return Pages.html(status, prescribers.data("page", view).data("nav", signedIn.nav()));
    }
}

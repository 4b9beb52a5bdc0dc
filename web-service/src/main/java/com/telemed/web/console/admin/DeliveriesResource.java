package com.telemed.web.console.admin;

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
import java.util.List;

/**
 * Webhook deliveries (interfaces.md D3; operations-api.md, "Webhook deliveries"): a partner's deliveries,
 * newest first, filtered by event, each with a redeliver form (the same body sent again, newly signed).
 * {@link DeliveriesFindResource} (the nav's link) finds the partner first. Administrators only: the form
 * token, then the role, before anything is asked of the gateway.
 */
@Path("/console/partners/{id}/deliveries")
@Produces(MediaType.TEXT_HTML)
public class DeliveriesResource {

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template deliveries;

    public DeliveriesResource(OpsClient ops, SignedIn signedIn, @Location("console-deliveries.html") Template deliveries) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.deliveries = deliveries;
    }

    @GET
    public Response page(@PathParam("id") String partnerId, @QueryParam("event") String event, @QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.ADMIN, Role.SUPPORT);
        return render(200, view(session, partnerId, AdminForms.blankToNull(event), "redelivered".equals(done) ? "Redelivered" : null, null));
    }

    /** Sends the delivery again: {@code 303} back with the notice; the gateway's refusal the page again with its text. */
    @POST
    @Path("/{deliveryId}/redeliver")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response redeliver(@PathParam("id") String partnerId, @PathParam("deliveryId") String deliveryId, @FormParam("csrf") String csrf,
                              @FormParam("event") String event) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN, Role.SUPPORT);
        String byEvent = AdminForms.blankToNull(event);
        try {
            ops.redeliver(session.token(), partnerId, deliveryId);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw new ConsoleError(new ErrorView(404, "Delivery not found", "There is no such delivery for this partner.",
                        deliveriesOf(partnerId, null), "Back to the deliveries"));
            }
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            String error = refusal.error() != null ? refusal.error() : AdminForms.NOT_DONE;
            return render(refusal.status(), view(session, partnerId, byEvent, null, error));
        }
        String back = deliveriesOf(partnerId, byEvent);
        return Pages.seeOther(back + (back.contains("?") ? "&" : "?") + "done=redelivered");
    }

    private DeliveriesView view(ConsoleSession session, String partnerId, String event, String notice, String error) {
        List<DeliveriesView.Row> rows = ops.deliveries(session.token(), partnerId, event).stream()
                .map(delivery -> row(partnerId, delivery)).toList();
        return new DeliveriesView(partnerId, AdminForms.nullToEmpty(event), rows, notice, error, session.csrf());
    }

    private static DeliveriesView.Row row(String partnerId, OpsApi.Delivery delivery) {
        List<OpsApi.Attempt> attempts = delivery.attempts() == null ? List.of() : delivery.attempts();
        String last = "-";
        if (!attempts.isEmpty()) {
            OpsApi.Attempt attempt = attempts.get(attempts.size() - 1);
            last = attempt.httpStatus() != null ? "HTTP " + attempt.httpStatus() : attempt.error() != null ? attempt.error() : "-";
        }
        String id = AdminForms.nullToEmpty(delivery.id());
        return new DeliveriesView.Row(id, AdminForms.nullToEmpty(delivery.event()), AdminForms.nullToEmpty(delivery.status()), attempts.size(), last,
                PartnersResource.time(delivery.createdAt()),
                "/console/partners/" + Pages.encode(partnerId) + "/deliveries/" + Pages.encode(id) + "/redeliver");
    }

    static String deliveriesOf(String partnerId, String event) {
        return "/console/partners/" + Pages.encode(partnerId) + "/deliveries" + (event == null ? "" : "?event=" + Pages.encode(event));
    }

    private Response render(int status, DeliveriesView view) {
        return Pages.html(status, deliveries.data("page", view).data("nav", signedIn.nav()));
    }
}

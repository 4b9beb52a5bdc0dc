package com.telemed.web.console.admin;

import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.page.Pages;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The nav's "Webhook deliveries" ({@code /console/deliveries}): deliveries are a partner's, so this page
 * finds the partner first ({@code partnerId}, the {@code event} filter kept) and leads to
 * {@link DeliveriesResource}'s page. Administrators only; nothing is asked of the gateway.
 */
@Path("/console/deliveries")
@Produces(MediaType.TEXT_HTML)
public class DeliveriesFindResource {

    private final SignedIn signedIn;
    private final Template deliveries;

    public DeliveriesFindResource(SignedIn signedIn, @Location("console-deliveries.html") Template deliveries) {
        this.signedIn = signedIn;
        this.deliveries = deliveries;
    }

    /** The find form; with {@code partnerId}, {@code 303} to that partner's deliveries (the event filter kept). */
    @GET
    public Response find(@QueryParam("partnerId") String partnerId, @QueryParam("event") String event) {
        ConsoleSession session = signedIn.require(Role.ADMIN, Role.SUPPORT);
        String partner = AdminForms.blankToNull(partnerId);
        String byEvent = AdminForms.blankToNull(event);
        if (partner != null) {
            return Pages.seeOther(DeliveriesResource.deliveriesOf(partner, byEvent));
        }
        return Pages.html(200, deliveries.data("page", new DeliveriesView(null, AdminForms.nullToEmpty(byEvent), List.of(), null, null, session.csrf()))
                .data("nav", signedIn.nav()));
    }
}

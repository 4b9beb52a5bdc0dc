package com.telemed.web.console.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.console.session.SignedIn;
import com.telemed.web.ops.OpsClient;
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
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * A request's page (interfaces.md C): {@code GET} shows it to a prescriber, support or an administrator;
 * a prescriber's item forms post here: approve (the prescription form), deny (a reason), request a
 * consultation. Each checks the form token and the role first, then asks the gateway as the prescriber
 * in person; a prescriber's note on the request posts here too. Success is {@code 303} to the page with {@code ?done=}, a refusal the page again with the
 * gateway's issues next to their fields and every typed value kept.
 */
@Path("/console/requests/{id}")
@Produces(MediaType.TEXT_HTML)
public class RequestPageResource {

    private final RequestPages pages;
    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template request;

    public RequestPageResource(RequestPages pages, OpsClient ops, SignedIn signedIn, @Location("console-request.html") Template request) {
        this.pages = pages;
        this.ops = ops;
        this.signedIn = signedIn;
        this.request = request;
    }

    @GET
    public Response page(@PathParam("id") String id, @QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.PRESCRIBER, Role.SUPPORT, Role.ADMIN);
        return render(200, pages.view(session, id, done, null));
    }

    /** A prescriber picks the request up (from the queue): {@code 303} to its page. */
    @POST
    @Path("/claim")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response claim(@PathParam("id") String id, @FormParam("csrf") String csrf) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.PRESCRIBER);
        try {
            ops.claim(session.token(), id, JsonNodeFactory.instance.objectNode());
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw RequestPages.notFound();
            }
            throw refusal;
        }
        return Pages.seeOther("/console/requests/" + Pages.encode(id));
    }

    @POST
    @Path("/items/{itemId}/approve")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response approve(@PathParam("id") String id, @PathParam("itemId") String itemId, MultivaluedMap<String, String> form) {
        return decide(id, itemId, "approve", "approved", form, DecisionForms.approval(form),
                List.copyOf(DecisionForms.APPROVE_FIELDS.keySet()));
    }

    @POST
    @Path("/items/{itemId}/deny")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response deny(@PathParam("id") String id, @PathParam("itemId") String itemId, MultivaluedMap<String, String> form) {
        return decide(id, itemId, "deny", "denied", form, DecisionForms.denial(form), List.of("reason"));
    }

    @POST
    @Path("/items/{itemId}/request-consultation")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response requestConsultation(@PathParam("id") String id, @PathParam("itemId") String itemId, MultivaluedMap<String, String> form) {
        return decide(id, itemId, "request-consultation", "consultation", form, JsonNodeFactory.instance.objectNode(), List.of());
    }

    /** A prescriber's note on the request ({@code {"text": "<as typed>"}}): {@code 303} to the page with {@code ?done=noted}. */
    @POST
    @Path("/notes")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response note(@PathParam("id") String id, MultivaluedMap<String, String> form) {
        signedIn.checkForm(form.getFirst("csrf"));
        ConsoleSession session = signedIn.require(Role.PRESCRIBER);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("text", DecisionForms.value(form, "text"));
        try {
            ops.addNote(session.token(), id, body);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw RequestPages.notFound();
            }
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            Map<String, String> errors = refusal.issues().isEmpty()
                    ? Map.of("", refusal.error() == null ? "This could not be done. Reload the page and try again." : refusal.error())
                    : DecisionForms.errors(refusal.issues(), List.of("text"));
            return render(refusal.status(), pages.view(session, id, null, new RequestPages.Failed(null, "note", form, errors)));
        }
        return Pages.seeOther("/console/requests/" + Pages.encode(id) + "?done=noted");
    }

    private Response decide(String id, String itemId, String decision, String done, MultivaluedMap<String, String> form, JsonNode body,
                            List<String> fields) {
        signedIn.checkForm(form.getFirst("csrf"));
        ConsoleSession session = signedIn.require(Role.PRESCRIBER);
        try {
            ops.decide(session.token(), id, itemId, decision, body);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw RequestPages.notFound();
            }
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            Map<String, String> errors = refusal.issues().isEmpty()
                    ? Map.of("", refusal.error() == null ? "This could not be done. Reload the page and try again." : refusal.error())
                    : DecisionForms.errors(refusal.issues(), fields);
            String kind = decision.equals("request-consultation") ? "consultation" : decision;
            return render(refusal.status(), pages.view(session, id, null, new RequestPages.Failed(itemId, kind, form, errors)));
        }
        return Pages.seeOther("/console/requests/" + Pages.encode(id) + "?done=" + done);
    }

    private Response render(int status, RequestView view) {
        return Pages.html(status, request.data("page", view).data("nav", signedIn.nav()));
    }
}

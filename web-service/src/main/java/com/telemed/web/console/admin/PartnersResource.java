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
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * Partners (interfaces.md D3; operations-api.md, "Partners and credentials"): create one (its API key and
 * publishable key shown once, in the answer to the form: {@code 200}, never a redirect, so no key is in an
 * address), find one by id, its page, and rotating its API key (the new key shown once the same way).
 * Administrators only: the form token, then the role, before anything is asked of the gateway.
 */
@Path("/console/partners")
@Produces(MediaType.TEXT_HTML)
public class PartnersResource {

    static final DateTimeFormatter CREATED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template partners;
    private final Template partner;

    public PartnersResource(OpsClient ops, SignedIn signedIn, @Location("console-partners.html") Template partners,
                            @Location("console-partner.html") Template partner) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.partners = partners;
        this.partner = partner;
    }

    /** The create and find forms; the find form's {@code partnerId}: {@code 303} to that partner's page. */
    @GET
    public Response page(@QueryParam("partnerId") String partnerId) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String find = AdminForms.blankToNull(partnerId);
        if (find != null) {
            return Pages.seeOther("/console/partners/" + Pages.encode(find));
        }
        return partners(200, new PartnersView("", null, null, session.csrf()));
    }

    /** {@code {"name": "<as typed>"}}: the gateway's own checks answer. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@FormParam("csrf") String csrf, @FormParam("name") String name) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("name", AdminForms.nullToEmpty(name));
        OpsApi.PartnerCreated created;
        try {
            created = ops.createPartner(session.token(), body);
        } catch (Refusal refusal) {
            if (refusal.status() != 400) {
                throw refusal;
            }
            Map<String, String> errors = AdminForms.errors(refusal, List.of("name"), Map.of());
            return partners(400, new PartnersView(AdminForms.nullToEmpty(name), errors.get("name"), errors.get(""), session.csrf()));
        }
        if (created == null || created.partner() == null || created.partner().id() == null || created.apiKey() == null) {
            throw unavailable();
        }
        return partner(200, view(created.partner(), created.apiKey(), created.publishableKey(), "Partner created", session));
    }

    @GET
    @Path("/{id}")
    public Response partner(@PathParam("id") String id) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        return partner(200, view(read(session, id), null, null, null, session));
    }

    /** A new API key; the previous one stops working at once. The answer is the partner's page with the key, {@code 200}. */
    @POST
    @Path("/{id}/rotate-key")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response rotate(@PathParam("id") String id, @FormParam("csrf") String csrf) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        OpsApi.ApiKey key;
        try {
            key = ops.rotateApiKey(session.token(), id);
        } catch (Refusal refusal) {
            if (refusal.status() == 404 || refusal.status() == 400) {
                throw notFound();
            }
            throw refusal;
        }
        if (key == null || key.apiKey() == null) {
            throw unavailable();
        }
        return partner(200, view(read(session, id), key.apiKey(), null, "API key rotated", session));
    }

    private OpsApi.Partner read(ConsoleSession session, String id) {
        try {
            OpsApi.Partner found = ops.partner(session.token(), id);
            if (found == null || found.id() == null) {
                throw unavailable();
            }
            return found;
        } catch (Refusal refusal) {
            if (refusal.status() == 404 || refusal.status() == 400) {
                throw notFound();
            }
            throw refusal;
        }
    }

    private static PartnerView view(OpsApi.Partner found, String apiKey, String publishableKey, String notice, ConsoleSession session) {
        return new PartnerView(found.id(), AdminForms.nullToEmpty(found.name()), time(found.createdAt()), apiKey, publishableKey, notice,
                session.csrf());
    }

    static ConsoleError notFound() {
        return new ConsoleError(new ErrorView(404, "Partner not found", "There is no partner with this id. Check the id and find it again.",
                "/console/partners", "Find a partner"));
    }

    static ConsoleError unavailable() {
        return new ConsoleError(503, "Sorry, the service is unavailable", "Try again in a few minutes.");
    }

    static String time(Instant at) {
        return at == null ? "" : CREATED.format(at);
    }

    private Response partners(int status, PartnersView view) {
        return Pages.html(status, partners.data("page", view).data("nav", signedIn.nav()));
    }

    private Response partner(int status, PartnerView view) {
        return Pages.html(status, partner.data("page", view).data("nav", signedIn.nav()));
    }
}

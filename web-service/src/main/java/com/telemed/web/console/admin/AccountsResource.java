package com.telemed.web.console.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Local accounts (interfaces.md D3; people-and-pages.md, "Credentials on /ops"): the live accounts, each
 * with a delete form, and the create form, whose body is what was typed (the gateway's checks answer,
 * each issue shown next to its field; the password is never shown again). Administrators only: the form
 * token, then the role, before anything is asked of the gateway.
 */
@Path("/console/accounts")
@Produces(MediaType.TEXT_HTML)
public class AccountsResource {

    static final List<String> FIELDS = List.of("email", "name", "roles", "prescriberId", "password");
    /** The API's refusals that are about one field. */
    static final Map<String, String> FIELD_TEXTS = Map.of("Account with this email already exists", "email",
            "Account for this prescriber already exists", "prescriberId", "Prescriber not found", "prescriberId");
    static final Map<String, String> NOTICES = Map.of("created", "Account created", "deleted", "Account deleted");

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template accounts;

    public AccountsResource(OpsClient ops, SignedIn signedIn, @Location("console-accounts.html") Template accounts) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.accounts = accounts;
    }

    @GET
    public Response page(@QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        return render(200, session, done == null ? null : NOTICES.get(done), null, Map.of(), List.of(), Map.of());
    }

    /** {@code {email, name, roles, prescriberId?, password}} as typed; {@code prescriberId} left out when empty. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(MultivaluedMap<String, String> form) {
        signedIn.checkForm(form.getFirst("csrf"));
        ConsoleSession session = signedIn.require(Role.ADMIN);
        List<String> roles = form.get("roles") == null ? List.of() : form.get("roles").stream().filter(AccountsView.ROLES::contains).distinct().toList();
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("email", value(form, "email").strip());
        body.put("name", value(form, "name"));
        ArrayNode roleArray = body.putArray("roles");
        roles.forEach(roleArray::add);
        String prescriberId = value(form, "prescriberId").strip();
        if (!prescriberId.isEmpty()) {
            body.put("prescriberId", prescriberId);
        }
        body.put("password", value(form, "password"));
        try {
            ops.createAccount(session.token(), body);
        } catch (Refusal refusal) {
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            Map<String, String> errors = new LinkedHashMap<>(AdminForms.errors(refusal, FIELDS, FIELD_TEXTS));
            String error = errors.remove("");
            Map<String, String> typed = Map.of("email", value(form, "email"), "name", value(form, "name"), "prescriberId", value(form, "prescriberId"));
            return render(refusal.status(), session, null, error, typed, roles, errors);
        }
        return Pages.seeOther("/console/accounts?done=created");
    }

    /** Deletes an account; its sessions end on their next call. */
    @POST
    @Path("/{accountId}/delete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response delete(@PathParam("accountId") String accountId, @FormParam("csrf") String csrf) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        try {
            ops.deleteAccount(session.token(), accountId);
        } catch (Refusal refusal) {
            if (refusal.status() == 404 || refusal.status() == 400) {
                throw new ConsoleError(new ErrorView(404, "Account not found", "There is no such account: it may have been deleted already.",
                        "/console/accounts", "Back to the accounts"));
            }
            throw refusal;
        }
        return Pages.seeOther("/console/accounts?done=deleted");
    }

    private Response render(int status, ConsoleSession session, String notice, String error, Map<String, String> typed, List<String> roles,
                            Map<String, String> errors) {
        List<AccountsView.Row> rows = ops.accounts(session.token()).stream().map(AccountsResource::row).toList();
        AccountsView view = new AccountsView(rows, notice, error, typed, roles, errors, session.csrf());
        return Pages.html(status, accounts.data("page", view).data("nav", signedIn.nav()));
    }

    private static AccountsView.Row row(OpsApi.Account account) {
        return new AccountsView.Row(account.id(), AdminForms.nullToEmpty(account.email()), AdminForms.nullToEmpty(account.name()),
                account.roles() == null ? "" : String.join(", ", account.roles()),
                account.prescriberId() == null ? "-" : account.prescriberId(),
                "/console/accounts/" + Pages.encode(AdminForms.nullToEmpty(account.id())) + "/delete");
    }

    private static String value(MultivaluedMap<String, String> form, String field) {
        String value = form.getFirst(field);
        return value == null ? "" : value;
    }
}

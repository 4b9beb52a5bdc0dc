package com.telemed.web.console.conversation;

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
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * A thread's page (interfaces.md D1): {@code GET} shows its messages oldest first to a prescriber (who marks
 * it read by opening it) or support; a prescriber replies ({@code text}) and attaches a file (multipart,
 * the form token inside it); a prescriber or support hands a patient message to the partner's support team
 * ({@code category}, {@code note}). Each post checks the form token and the role first, then asks the
 * gateway; success is {@code 303} back with {@code ?done=}, a refusal the page again with the gateway's
 * issues next to their fields and what was typed kept. Its root is {@link ConversationResource}'s: a class
 * at {@code /console/conversations/{id}} would take {@code /console/conversations/table} (JAX-RS matches
 * the classes first).
 */
@Path("/console/conversations")
@Produces(MediaType.TEXT_HTML)
public class ThreadResource {

    static final String NO_FILE = "Select a file";

    private final ConversationPages pages;
    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template thread;

    public ThreadResource(ConversationPages pages, OpsClient ops, SignedIn signedIn, @Location("console-conversation.html") Template thread) {
        this.pages = pages;
        this.ops = ops;
        this.signedIn = signedIn;
        this.thread = thread;
    }

    @GET
    @Path("/{id}")
    public Response page(@PathParam("id") String id, @QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.PRESCRIBER, Role.SUPPORT);
        return render(200, pages.thread(session, id, done, null));
    }

    @POST
    @Path("/{id}/reply")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response reply(@PathParam("id") String id, @FormParam("csrf") String csrf, @FormParam("text") String text) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.PRESCRIBER);
        Map<String, String> typed = typed("text", text);
        return post(session, id, "sent", new Attempt("reply", null, typed, List.of("text")),
                () -> ops.reply(session.token(), id, ThreadForms.reply(text)));
    }

    @POST
    @Path("/{id}/attach")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response attach(@PathParam("id") String id, @RestForm("csrf") String csrf, @RestForm("file") FileUpload file) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.PRESCRIBER);
        Attempt attempt = new Attempt("attach", null, Map.of(), List.of("file"));
        if (file == null || file.fileName() == null || file.fileName().isEmpty() && file.size() == 0) {
            return render(400, pages.thread(session, id, null, attempt.failed(Map.of("file", NO_FILE))));
        }
        String type = file.contentType() == null || file.contentType().isBlank() ? MediaType.APPLICATION_OCTET_STREAM : file.contentType();
        return post(session, id, "attached", attempt, () -> ops.attach(session.token(), id, file.fileName(), file.uploadedFile(), type));
    }

    @POST
    @Path("/{id}/messages/{messageId}/handoff")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response handOff(@PathParam("id") String id, @PathParam("messageId") String messageId, @FormParam("csrf") String csrf,
                            @FormParam("category") String category, @FormParam("note") String note) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.PRESCRIBER, Role.SUPPORT);
        Map<String, String> typed = typed("category", category);
        typed.putAll(typed("note", note));
        return post(session, id, "handed-off", new Attempt("handoff", messageId, typed, List.of("category", "note")),
                () -> ops.handOff(session.token(), id, messageId, ThreadForms.handOff(category, note)));
    }

    /** A form's post: what it was, what was typed, the fields the gateway's issues may name. */
    private record Attempt(String form, String messageId, Map<String, String> typed, List<String> fields) {

        ConversationPages.Failed failed(Map<String, String> errors) {
            return new ConversationPages.Failed(form, messageId, typed, errors);
        }
    }

    private Response post(ConsoleSession session, String id, String done, Attempt attempt, Runnable call) {
        try {
            call.run();
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw ConversationPages.notFound();
            }
            if (refusal.status() != 400 && refusal.status() != 413) {
                throw refusal;
            }
            Map<String, String> errors;
            if (!refusal.issues().isEmpty()) {
                errors = ThreadForms.errors(refusal.issues(), attempt.fields());
            } else {
                String message = refusal.error() == null ? "This could not be done. Reload the page and try again." : refusal.error();
                // The attachment's refusals (no file, a type not accepted, too large) are about its one field.
                errors = Map.of(attempt.form().equals("attach") ? "file" : "", message);
            }
            return render(refusal.status(), pages.thread(session, id, null, attempt.failed(errors)));
        }
        return Pages.seeOther("/console/conversations/" + Pages.encode(id) + "?done=" + done);
    }

    private static Map<String, String> typed(String name, String value) {
        Map<String, String> typed = new LinkedHashMap<>();
        typed.put(name, value == null ? "" : value);
        return typed;
    }

    private Response render(int status, ThreadView view) {
        return Pages.html(status, thread.data("page", view).data("nav", signedIn.nav()));
    }
}

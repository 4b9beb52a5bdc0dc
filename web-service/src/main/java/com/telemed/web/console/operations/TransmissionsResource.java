package com.telemed.web.console.operations;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Failed transmissions (interfaces.md E3; requests-service's {@code GET /ops/v1/pharmacy/failed-transmissions}):
 * the items whose last transmission to the pharmacy failed, newest first, each with a "Resend" form
 * ({@code POST /ops/v1/requests/{id}/items/{itemId}/send-to-pharmacy}); the outcome comes back as the
 * notice of a {@code 303} to the list, in the address only as {@code done}, the method and the refusal's
 * code (never its text, which may be a pharmacy's). Administrators and support: the form token, then the
 * role, before anything is asked of the gateway.
 */
@Path("/console/transmissions")
@Produces(MediaType.TEXT_HTML)
public class TransmissionsResource {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    /** A method or a refusal's code as the address may carry it. */
    static final Pattern WORD = Pattern.compile("[a-z0-9_-]{1,60}");
    /** {@code Fulfillment held: <code>: <reason>} (requests-service's {@code Refusal}). */
    static final Pattern HELD = Pattern.compile("^Fulfillment held: ([a-z0-9_]{1,60}):");
    static final String LIST = "/console/transmissions";

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template transmissions;

    public TransmissionsResource(OpsClient ops, SignedIn signedIn, @Location("console-transmissions.html") Template transmissions) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.transmissions = transmissions;
    }

    @GET
    public Response page(@QueryParam("done") String done, @QueryParam("method") String method, @QueryParam("reason") String reason) {
        ConsoleSession session = signedIn.require(Role.ADMIN, Role.SUPPORT);
        return render(200, view(session, notice(done, method, reason), null));
    }

    /** The operator's resend: {@code 303} back with its outcome; the gateway's refusal the page again with its text. */
    @POST
    @Path("/{requestId}/{itemId}/resend")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response resend(@PathParam("requestId") String requestId, @PathParam("itemId") String itemId, @FormParam("csrf") String csrf) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN, Role.SUPPORT);
        OpsApi.SendOutcome outcome;
        try {
            outcome = ops.sendToPharmacy(session.token(), requestId, itemId);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                throw new ConsoleError(new ErrorView(404, refusal.error() == null ? "Not found" : refusal.error(),
                        "There is no such item to send. It may have been sent already.", LIST, "Back to the failed transmissions"));
            }
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            String error = refusal.error() != null ? refusal.error() : PharmacyKeysResource.NOT_DONE;
            return render(refusal.status(), view(session, null, error));
        }
        return Pages.seeOther(LIST + outcome(outcome));
    }

    /** The address's part that says what happened: {@code ?done=sent&method=api}, {@code ?done=not-sent&reason=pharmacy_rejected}. */
    static String outcome(OpsApi.SendOutcome outcome) {
        if (Boolean.TRUE.equals(outcome.success())) {
            return "?done=sent" + (outcome.method() != null && WORD.matcher(outcome.method()).matches() ? "&method=" + outcome.method() : "");
        }
        Matcher held = outcome.error() == null ? null : HELD.matcher(outcome.error());
        return "?done=not-sent" + (held != null && held.find() ? "&reason=" + held.group(1) : "");
    }

    static String notice(String done, String method, String reason) {
        if ("sent".equals(done)) {
            return "Sent to the pharmacy" + (method != null && WORD.matcher(method).matches() ? " (" + method + ")" : "");
        }
        if ("not-sent".equals(done)) {
            return "Not sent" + (reason != null && WORD.matcher(reason).matches() ? ": " + reason : "");
        }
        return null;
    }

    private TransmissionsView view(ConsoleSession session, String notice, String error) {
        List<TransmissionsView.Row> rows = ops.failedTransmissions(session.token()).stream().map(TransmissionsResource::row).toList();
        return new TransmissionsView(rows, notice, error, session.csrf());
    }

    private static TransmissionsView.Row row(OpsApi.FailedTransmission item) {
        String requestId = nullToEmpty(item.requestId());
        String itemId = nullToEmpty(item.itemId());
        return new TransmissionsView.Row(requestId, itemId, nullToEmpty(item.partnerId()), nullToEmpty(item.error()), time(item.failedAt()),
                "/console/requests/" + Pages.encode(requestId),
                LIST + "/" + Pages.encode(requestId) + "/" + Pages.encode(itemId) + "/resend");
    }

    static String time(Instant at) {
        return at == null ? "-" : TIME.format(at);
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }

    private Response render(int status, TransmissionsView view) {
        return Pages.html(status, transmissions.data("page", view).data("nav", signedIn.nav()));
    }
}

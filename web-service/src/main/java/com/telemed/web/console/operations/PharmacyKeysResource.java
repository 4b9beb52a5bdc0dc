package com.telemed.web.console.operations;

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
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Pharmacy credentials (interfaces.md E3; the gateway's {@code /ops/v1/pharmacies/{pharmacyId}/credentials}):
 * issue a pharmacy's {@code phk_} key (shown once, in the answer to the form: {@code 200}, never a redirect,
 * so the key is in no address) and revoke one. Administrators only: the form token, then the role, then the
 * fields, before anything is asked of the gateway.
 */
@Path("/console/pharmacy-keys")
@Produces(MediaType.TEXT_HTML)
public class PharmacyKeysResource {

    static final String ENTER_PHARMACY = "Enter the pharmacy id";
    static final String ENTER_CREDENTIAL = "Enter the credential id";
    static final String NOT_DONE = "This could not be done. Reload the page and try again.";

    private final OpsClient ops;
    private final SignedIn signedIn;
    private final Template keys;

    public PharmacyKeysResource(OpsClient ops, SignedIn signedIn, @Location("console-pharmacy-keys.html") Template keys) {
        this.ops = ops;
        this.signedIn = signedIn;
        this.keys = keys;
    }

    @GET
    public Response page(@QueryParam("done") String done) {
        ConsoleSession session = signedIn.require(Role.ADMIN);
        return render(200, new PharmacyKeysView("", null, "", null, "", null, null, null, null,
                "revoked".equals(done) ? "Pharmacy key revoked" : null, null, session.csrf()));
    }

    /** A new key for the pharmacy: the page with the key, {@code 200}; the gateway's refusal next to the field. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response issue(@FormParam("csrf") String csrf, @FormParam("pharmacyId") String pharmacyId) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String typed = nullToEmpty(pharmacyId);
        String pharmacy = blankToNull(pharmacyId);
        if (pharmacy == null) {
            return render(400, issueFailed(typed, ENTER_PHARMACY, session));
        }
        OpsApi.PharmacyKey key;
        try {
            key = ops.issuePharmacyKey(session.token(), pharmacy);
        } catch (Refusal refusal) {
            if (refusal.status() != 400 && refusal.status() != 404) {
                throw refusal;
            }
            return render(refusal.status(), issueFailed(typed, refusal.error() == null ? NOT_DONE : refusal.error(), session));
        }
        if (key == null || key.key() == null || key.credentialId() == null) {
            throw new ConsoleError(503, "Sorry, the service is unavailable", "Try again in a few minutes.");
        }
        return render(200, new PharmacyKeysView("", null, "", null, "", null, pharmacy, key.credentialId(), key.key(), "Pharmacy key issued", null,
                session.csrf()));
    }

    /** Revokes the credential at once: {@code 303} back with the notice; unknown or revoked already next to the field. */
    @POST
    @Path("/revoke")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response revoke(@FormParam("csrf") String csrf, @FormParam("pharmacyId") String pharmacyId, @FormParam("credentialId") String credentialId) {
        signedIn.checkForm(csrf);
        ConsoleSession session = signedIn.require(Role.ADMIN);
        String pharmacy = blankToNull(pharmacyId);
        String credential = blankToNull(credentialId);
        if (pharmacy == null || credential == null) {
            return render(400, revokeFailed(pharmacyId, pharmacy == null ? ENTER_PHARMACY : null, credentialId,
                    credential == null ? ENTER_CREDENTIAL : null, null, session));
        }
        try {
            ops.revokePharmacyKey(session.token(), pharmacy, credential);
        } catch (Refusal refusal) {
            if (refusal.status() == 404) {
                return render(404, revokeFailed(pharmacyId, null, credentialId, refusal.error() == null ? NOT_DONE : refusal.error(), null, session));
            }
            if (refusal.status() != 400 && refusal.status() != 409) {
                throw refusal;
            }
            return render(refusal.status(), revokeFailed(pharmacyId, null, credentialId, null, refusal.error() == null ? NOT_DONE : refusal.error(),
                    session));
        }
        return Pages.seeOther("/console/pharmacy-keys?done=revoked");
    }

    private static PharmacyKeysView issueFailed(String typed, String error, ConsoleSession session) {
        return new PharmacyKeysView(typed, error, "", null, "", null, null, null, null, null, null, session.csrf());
    }

    private static PharmacyKeysView revokeFailed(String pharmacyId, String pharmacyError, String credentialId, String credentialError, String error,
                                                 ConsoleSession session) {
        return new PharmacyKeysView("", null, nullToEmpty(pharmacyId), pharmacyError, nullToEmpty(credentialId), credentialError, null, null, null,
                null, error, session.csrf());
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }

    private Response render(int status, PharmacyKeysView view) {
        return Pages.html(status, keys.data("page", view).data("nav", signedIn.nav()));
    }
}

package com.telemed.web.console.session;

import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.ops.SignedOut;
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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Optional;

/**
 * The console's door (interfaces.md C): {@code /console} leads to the signed-in person's first page,
 * the sign-in form signs in through the gateway ({@code POST /ops/v1/sessions}, then
 * {@code GET /ops/v1/sessions/current} for who it is) and stores the session in the sealed cookie, the
 * sign-out form ends the gateway's session and clears the cookie. The sign-in form alone has no form
 * token: there is no session yet ({@code SameSite} and the gateway's own limit on failures cover it).
 */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class SignInResource {

    static final String INVALID = "Invalid email or password";
    static final String TOO_MANY = "Too many attempts. Try again later.";
    static final String NO_PASSWORDS = "Sign-in with a password is not available here";

    private final OpsClient ops;
    private final ConsoleSessions sessions;
    private final SignedIn signedIn;
    private final Template signIn;
    private final boolean oidc;
    private final ProviderSignOut providerSignOut;

    public SignInResource(OpsClient ops, ConsoleSessions sessions, SignedIn signedIn,
                          @Location("console-sign-in.html") Template signIn, ConsoleConfig config, ProviderSignOut providerSignOut) {
        this.providerSignOut = providerSignOut;
        this.ops = ops;
        this.sessions = sessions;
        this.signedIn = signedIn;
        this.signIn = signIn;
        this.oidc = config.oidc().on();
    }

    @GET
    public Response home() {
        return Pages.seeOther(signedIn.session().home());
    }

    @GET
    @Path("/sign-in")
    public Response form() {
        return page(200, SignInView.blank());
    }

    @POST
    @Path("/sign-in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signIn(@FormParam("email") String email, @FormParam("password") String password) {
        String typed = email == null ? "" : email.strip();
        boolean noEmail = typed.isEmpty();
        boolean noPassword = password == null || password.isEmpty();
        if (noEmail || noPassword) {
            return page(400, new SignInView(typed, noEmail ? "Enter your email" : null, noPassword ? "Enter your password" : null, null));
        }
        OpsApi.SessionToken token;
        try {
            token = ops.signIn(typed, password);
        } catch (Refusal refusal) {
            return switch (refusal.status()) {
                case 429 -> page(429, new SignInView(typed, null, null, TOO_MANY));
                case 400 -> page(400, new SignInView(typed, "Enter an email address, like name@example.com", null, null));
                // Local accounts are off at the gateway: only the organisation's sign-in is offered.
                case 404 -> Pages.html(404, signIn.data("page", new SignInView("", null, null, NO_PASSWORDS)).data("nav", null)
                        .data("oidc", oidc).data("passwords", false));
                default -> page(401, new SignInView(typed, null, null, INVALID));
            };
        }
        OpsApi.Current current;
        try {
            current = ops.current(token.token());
        } catch (SignedOut ended) {
            return page(401, new SignInView(typed, null, null, INVALID));
        }
        ConsoleSession session = sessions.start(token.token(), current.account());
        return Response.status(303).header(HttpHeaders.LOCATION, session.home())
                .header(HttpHeaders.SET_COOKIE, sessions.cookie(session)).build();
    }

    @POST
    @Path("/sign-out")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signOut(@FormParam("csrf") String csrf, @Context UriInfo uri) {
        signedIn.checkForm(csrf);
        if (!signedIn.session().gatewaySession()) {
            // The provider's access token: the gateway has no session to end; the provider's own, when it says where.
            Optional<String> provider = providerSignOut.redirect(uri.getBaseUriBuilder().replacePath(SessionFilter.SIGN_IN).build());
            if (provider.isPresent()) {
                return Response.status(303).header(HttpHeaders.LOCATION, provider.get())
                        .header(HttpHeaders.SET_COOKIE, SessionCookies.cleared()).build();
            }
            return SessionFilter.toSignIn(true);
        }
        try {
            ops.signOut(signedIn.token());
        } catch (SignedOut alreadyEnded) {
            // The gateway's session is over already: the cookie goes all the same.
        }
        return SessionFilter.toSignIn(true);
    }

    private Response page(int status, SignInView view) {
        return Pages.html(status, signIn.data("page", view).data("nav", null).data("oidc", oidc).data("passwords", true));
    }
}

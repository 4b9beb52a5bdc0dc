package com.telemed.web.console.session;

import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.ops.SignedOut;
import com.telemed.web.page.Pages;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.OidcSession;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The console's OpenID Connect sign-in (interfaces.md E1): {@code GET /console/sign-in/oidc} is guarded by
 * quarkus-oidc's authorization code flow ({@link ConsoleOidcTenant}: to the provider, back with a code,
 * exchanged with PKCE). Once the person is back, their access token is the console's token: the gateway
 * says who it is ({@code GET /ops/v1/sessions/current}, which verifies OpenID Connect bearers) and when it
 * ends (its {@code exp}), and the console seals its own cookie with it, which never outlives the token.
 * quarkus-oidc's own session cookie is removed: the console's cookie is the one session. The gateway
 * refusing the token ({@code 401}: another audience, no account's roles): the sign-in page, {@code 401}.
 */
@Path("/console/sign-in/oidc")
@Produces(MediaType.TEXT_HTML)
public class OidcSignInResource {

    static final String REFUSED = "Your organisation's sign-in is not accepted here";

    private final OpsClient ops;
    private final ConsoleSessions sessions;
    private final SecurityIdentity identity;
    private final OidcSession oidcSession;
    private final Template signIn;
    private final ConsoleConfig config;

    public OidcSignInResource(OpsClient ops, ConsoleSessions sessions, SecurityIdentity identity, OidcSession oidcSession,
                              @Location("console-sign-in.html") Template signIn, ConsoleConfig config) {
        this.ops = ops;
        this.sessions = sessions;
        this.identity = identity;
        this.oidcSession = oidcSession;
        this.signIn = signIn;
        this.config = config;
    }

    @GET
    @Authenticated
    public Response signIn() {
        AccessTokenCredential credential = identity.getCredential(AccessTokenCredential.class);
        // quarkus-oidc's cookie goes whatever the gateway says: the console's is the one session.
        oidcSession.logout().await().indefinitely();
        if (credential == null || credential.getToken() == null) {
            return refused();
        }
        String token = credential.getToken();
        OpsApi.Current current;
        try {
            current = ops.current(token);
        } catch (SignedOut refused) {
            return refused();
        }
        ConsoleSession session = sessions.start(token, current.account(), current.expiresAt());
        return Response.status(303).header(HttpHeaders.LOCATION, session.home())
                .header(HttpHeaders.SET_COOKIE, sessions.cookie(session)).build();
    }

    private Response refused() {
        return Pages.html(401, signIn.data("page", new SignInView("", null, null, REFUSED)).data("nav", null)
                .data("oidc", config.oidc().on()).data("passwords", true));
    }
}

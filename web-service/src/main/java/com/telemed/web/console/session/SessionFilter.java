package com.telemed.web.console.session;

import com.telemed.web.page.PageHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Every console page but the sign-in one needs a session: the cookie opened ({@link ConsoleSessions}),
 * within its limits. Without one (no cookie, expired, unreadable, tampered, another key): {@code 303} to
 * {@code /console/sign-in}, the cookie cleared when one was sent, before any resource runs and before
 * anything is asked of the gateway. A session a minute or more since it was last stored goes back to the
 * browser with the answer, seen now (the idle limit counts from there); but for a live table's refresh, which
 * the page's script makes on its own ({@link #LIVE}): an open page left alone still ends its session.
 */
@Singleton
public class SessionFilter {

    static final String SIGN_IN = "/console/sign-in";
    /** The OpenID Connect sign-in: quarkus-oidc's code flow guards it, and it makes the session. */
    static final String SIGN_IN_OIDC = "/console/sign-in/oidc";
    /** The live tables' fragments, fetched by {@code app.js} while a page is open. */
    static final Set<String> LIVE = Set.of("/console/conversations/table", "/console/queue/table");

    private final ConsoleSessions sessions;
    private final SignedIn signedIn;
    private final ProviderSignOut providerSignOut;

    public SessionFilter(ConsoleSessions sessions, SignedIn signedIn, ProviderSignOut providerSignOut) {
        this.sessions = sessions;
        this.signedIn = signedIn;
        this.providerSignOut = providerSignOut;
    }

    @ServerRequestFilter
    public Response session(ContainerRequestContext request, RoutingContext routing) {
        String path = request.getUriInfo().getPath();
        if (!path.equals("/console") && !path.startsWith("/console/") || path.equals(SIGN_IN) || path.equals(SIGN_IN_OIDC)) {
            return null;
        }
        Cookie cookie = request.getCookies().get(SessionCookies.NAME);
        Optional<ConsoleSession> session = cookie == null ? Optional.empty() : sessions.open(cookie.getValue());
        if (session.isEmpty()) {
            return toSignIn(cookie != null);
        }
        // A live table's refresh (app.js, every few seconds) is no use of the console: it keeps no idle session alive.
        Optional<ConsoleSession> refreshed = LIVE.contains(path) ? Optional.empty() : sessions.refreshed(session.get());
        signedIn.set(refreshed.orElse(session.get()), refreshed.isPresent());
        if (!session.get().gatewaySession()) {
            // The sign-out form of a provider's session ends at the provider: the redirect must be allowed.
            providerSignOut.origin().ifPresent(origin -> PageHeaders.allowFormAction(routing, origin));
        }
        return null;
    }

    @ServerResponseFilter
    public void reissue(ContainerResponseContext response) {
        if (signedIn.present() && signedIn.reissue() && !response.getHeaders().containsKey(HttpHeaders.SET_COOKIE)) {
            response.getHeaders().add(HttpHeaders.SET_COOKIE, sessions.cookie(signedIn.session()));
        }
    }

    /** {@code 303} to the sign-in page; {@code clear}: the browser's cookie is removed too. */
    public static Response toSignIn(boolean clear) {
        Response.ResponseBuilder answer = Response.status(303).header(HttpHeaders.LOCATION, SIGN_IN);
        if (clear) {
            answer.header(HttpHeaders.SET_COOKIE, SessionCookies.cleared());
        }
        return answer.build();
    }
}

package com.telemed.web.console.session;

import com.telemed.web.ops.SignedOut;
import com.telemed.web.page.ErrorView;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The console's error answers: its own pages ({@link ConsoleError}) in the console's layout, with the
 * header of the session when there is one; a session the gateway no longer knows ({@link SignedOut}:
 * {@code 303} to the sign-in page, the cookie cleared); and a refusal of the gateway no page named more
 * precisely ({@code 403} the Forbidden page, others the page for their status). A gateway that does not
 * answer stays the service's 503 page ({@code page.ErrorPages}).
 */
@Singleton
public class ConsoleErrors {

    private final Template error;
    private final SignedIn signedIn;

    public ConsoleErrors(@Location("console-error.html") Template error, SignedIn signedIn) {
        this.error = error;
        this.signedIn = signedIn;
    }

    @ServerExceptionMapper
    public Response consoleError(ConsoleError failure) {
        return page(failure.view());
    }

    @ServerExceptionMapper
    public Response signedOut(SignedOut failure) {
        return SessionFilter.toSignIn(true);
    }

    @ServerExceptionMapper
    public Response refused(Refusal refusal) {
        return page(switch (refusal.status()) {
            case 403 -> ConsoleError.forbidden().view();
            case 404 -> ErrorView.forStatus(404);
            case 409 -> new ErrorView(409, "This could not be done", refusal.error() != null ? refusal.error()
                    : "Things changed while you were on the page. Go back and try again.", null, null);
            default -> ErrorView.forStatus(refusal.status());
        });
    }

    public Response page(ErrorView view) {
        return Pages.html(view.status(), error.data("error", view).data("nav", signedIn.navWithoutCounts()));
    }
}

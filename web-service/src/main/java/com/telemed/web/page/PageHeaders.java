package com.telemed.web.page;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * The headers of every answer of the http port, pages, assets, error pages and refusals alike: one
 * Vert.x route ahead of every other (its observer runs before platform-commons' proof check installs
 * its own, so a refused call gets them too) that sets them as the answer's headers are written.
 *
 * <ul>
 *   <li>{@code Content-Security-Policy}: {@link #policy}: nothing but the service's own script, style
 *   and images, no inline script, fetches only to the service (the console's live tables), forms posted only to the service (and to the validated return origin
 *   of a survey whose answer redirects there: {@link #allowFormAction}), no {@code <base>}, never framed;</li>
 *   <li>{@code Cache-Control: no-store}: nothing of a patient's page is kept by any cache;</li>
 *   <li>{@code Referrer-Policy: no-referrer}: a page's address (its token) never leaves in a Referer;</li>
 *   <li>{@code X-Content-Type-Options: nosniff}.</li>
 * </ul>
 */
@Singleton
public class PageHeaders {

    public static final String CONTENT_SECURITY_POLICY = "Content-Security-Policy";
    private static final String FORM_ACTION = PageHeaders.class.getName() + ".form-action";

    void install(@Observes @Priority(1) Router router) {
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            context.addHeadersEndHandler(ignored -> context.response().headers()
                    .set(CONTENT_SECURITY_POLICY, policy(context.get(FORM_ACTION)))
                    .set("Cache-Control", "no-store")
                    .set("Referrer-Policy", "no-referrer")
                    .set("X-Content-Type-Options", "nosniff"));
            context.next();
        });
    }

    /** Lets this answer's forms post to {@code origin} as well (a survey whose answer redirects to its {@code return}). */
    public static void allowFormAction(RoutingContext context, String origin) {
        context.put(FORM_ACTION, origin);
    }

    /** The policy; {@code formOrigin} (an origin, {@code https://partner.example}) joins {@code form-action} when not null. */
    public static String policy(String formOrigin) {
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'"
                + (formOrigin == null ? "" : " " + formOrigin) + "; base-uri 'none'; frame-ancestors 'none'";
    }
}

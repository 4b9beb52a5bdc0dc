package com.telemed.common.metrics;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Names an OPTIONS call in the HTTP server metrics ({@code http_server_requests_seconds{uri}}) when no
 * route template does. Quarkus REST answers OPTIONS on every path of its resources itself (200 with
 * the {@code Allow} header) without a resource method, so without a template, and Quarkus's
 * Micrometer binder then tags the raw path, ids included: a 2xx is not folded into {@code UNKNOWN} as
 * a 4xx is (microprofile-config.properties, "Metrics"), and every OPTIONS with a new id would add a
 * series. Each OPTIONS call starts as {@value #UNKNOWN} in the binder's template local
 * ({@value #KEY}; the binder prefixes the root path: {@code uri="/UNKNOWN"}); a resource method or
 * the gateway's routing table that does name the call writes over it.
 */
@ApplicationScoped
public class UntemplatedOptions {

    /** Where Quarkus's Micrometer binder reads a call's template (Quarkus REST and the gateway's Edge write it). */
    static final String KEY = "UrlPathTemplate";
    static final String UNKNOWN = "UNKNOWN";
    /** Before routing: above the route handlers, which write the template they match. */
    private static final int PRIORITY = 100;

    void register(@Observes Filters filters) {
        filters.register(context -> {
            if (context.request().method() == HttpMethod.OPTIONS
                    && context.request() instanceof HttpServerRequestInternal internal) {
                internal.context().putLocal(KEY, UNKNOWN);
            }
            context.next();
        }, PRIORITY);
    }
}

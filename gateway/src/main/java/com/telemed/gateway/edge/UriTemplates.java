package com.telemed.gateway.edge;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerRequestInternal;

/**
 * Names a call in the HTTP server metrics ({@code http_server_requests_seconds{uri}}). The gateway
 * answers every call from one catch-all route, so Quarkus has no template of its own for it and
 * would tag the raw path, ids and tokens included. Quarkus's Micrometer binder takes the template
 * from the request context's local {@value #KEY}, which Quarkus REST sets for its resources; the
 * gateway sets its routing-table entry there ({@link Routes#template}). A call that matches no
 * route gets none and is tagged {@code NOT_FOUND} or {@code UNKNOWN} (microprofile-config.properties, "Metrics").
 */
final class UriTemplates {

    static final String KEY = "UrlPathTemplate";

    private UriTemplates() {
    }

    static void tag(HttpServerRequest request, String path) {
        if (request instanceof HttpServerRequestInternal internal) {
            Routes.template(path).ifPresent(template -> internal.context().putLocal(KEY, template));
        }
    }
}

package com.telemed.gateway.edge;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.regex.Pattern;

/**
 * CORS at the edge: permissive on the partner API (server-to-server, but the contract promises
 * the headers), and only for allow-listed origins on the embed API.
 */
final class Cors {

    private static final Pattern LOCALHOST = Pattern.compile("^http://localhost(:\\d{1,5})?$");
    private static final String METHODS = "GET, POST, PUT, DELETE, OPTIONS";
    private static final String PARTNER_HEADERS = "Content-Type, x-api-key, Idempotency-Key, X-Request-Id";
    private static final String EMBED_HEADERS = "Content-Type, x-service-publishable-key, X-Request-Id";

    private Cors() {
    }

    static boolean isPreflight(HttpServerRequest request) {
        return request.method().name().equals("OPTIONS");
    }

    static void allowAnyOrigin(HttpServerResponse response) {
        response.putHeader("Access-Control-Allow-Origin", "*")
                .putHeader("Access-Control-Expose-Headers", "X-Request-Id");
    }

    /** An embed answer: the page's script may read the request id and the submission limits' headers. */
    static void allowOrigin(HttpServerResponse response, String origin) {
        response.putHeader("Access-Control-Allow-Origin", origin)
                .putHeader("Vary", "Origin")
                .putHeader("Access-Control-Expose-Headers", "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After");
    }

    static void answerPreflight(HttpServerRequest request, HttpServerResponse response, boolean embed) {
        String asked = request.getHeader("Access-Control-Request-Headers");
        response.putHeader("Access-Control-Allow-Methods", METHODS)
                .putHeader("Access-Control-Allow-Headers",
                        asked != null && !asked.isBlank() ? asked : (embed ? EMBED_HEADERS : PARTNER_HEADERS))
                .putHeader("Access-Control-Max-Age", "86400")
                .setStatusCode(204)
                .end();
    }

    /** Sandbox deployments also let a partner's developers embed from their own machine. */
    static boolean isLocalDevelopmentOrigin(String origin, String environment) {
        return "sandbox".equals(environment) && origin != null && LOCALHOST.matcher(origin).matches();
    }
}

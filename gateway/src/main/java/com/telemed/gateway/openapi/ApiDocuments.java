package com.telemed.gateway.openapi;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves the API's description (issue 22): the partner document at {@code /openapi.json} and
 * {@code /openapi.yaml}, the operator document at {@code /ops/openapi.json} and
 * {@code /ops/openapi.yaml}, and the reference page at {@code /docs} (the partner document rendered
 * on the server, {@link ReferencePage}, with its stylesheet and icon). The edge ({@code edge.Routes})
 * decides who may read which: the partner document and the page need no credential, the operator
 * document the operator key. Both documents and the page are built once, at startup (a source that
 * does not build fails the start), and answered from bytes.
 */
@ApplicationScoped
public class ApiDocuments {

    /** The page's own files, next to it under {@code /docs/}. */
    private static final Map<String, Asset> ASSETS = Map.of(
            "reference.css", new Asset("openapi/docs/reference.css", "text/css; charset=utf-8"),
            "favicon.svg", new Asset("openapi/docs/favicon.svg", "image/svg+xml"));

    /**
     * The page runs no script at all and loads nothing but its stylesheet and icon from this
     * gateway: no inline style either, no fetch, no form, no frame, never framed.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self';"
            + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record Asset(String resource, String contentType) {
    }

    private final OpenApiDocuments.Document partner = OpenApiDocuments.partner();
    private final OpenApiDocuments.Document operations = OpenApiDocuments.operations();
    private final Buffer referencePage = Buffer.buffer(ReferencePage.render(partner.tree()));
    private final Map<String, Buffer> assetBytes = new ConcurrentHashMap<>();

    void install(@Observes Router router) {
        serve(router, "/openapi.json", "application/json", partner.json());
        serve(router, "/openapi.yaml", "application/yaml", partner.yaml());
        serve(router, "/ops/openapi.json", "application/json", operations.json());
        serve(router, "/ops/openapi.yaml", "application/yaml", operations.yaml());
        router.routeWithRegex("/docs(/[A-Za-z0-9._-]*)?").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(this::page);
    }

    private static void serve(Router router, String path, String contentType, byte[] bytes) {
        Buffer body = Buffer.buffer(bytes);
        router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD).handler(context -> context.response()
                .putHeader("Content-Type", contentType)
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Content-Type-Options", "nosniff")
                .end(body));
    }

    private void page(RoutingContext context) {
        String path = context.normalizedPath();
        HttpServerResponse response = context.response();
        if (path.equals("/docs") || path.equals("/docs/")) {
            response.putHeader("Content-Type", "text/html; charset=utf-8")
                    .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .putHeader("Cache-Control", "no-cache")
                    .end(referencePage);
            return;
        }
        String name = path.substring("/docs/".length());
        Optional<Asset> asset = Optional.ofNullable(ASSETS.get(name));
        if (asset.isEmpty()) {
            response.setStatusCode(404).putHeader("Content-Type", "application/json").end("{\"error\":\"Not Found\"}");
            return;
        }
        Buffer bytes = assetBytes.computeIfAbsent(name, ignored -> load(asset.get().resource()));
        response.putHeader("Content-Type", asset.get().contentType())
                .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("Cache-Control", "no-cache")
                .end(bytes);
    }

    private static Buffer load(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing " + resource);
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package com.telemed.gateway.edge;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on loopback standing in for the services behind the gateway: it answers
 * every call with what it received (method, path, query, request target, headers, body size), and
 * {@code /v1/members/slow} answers only after three seconds. Billing points at a closed port.
 */
public class UpstreamServer implements QuarkusTestResourceLifecycleManager {

    private Vertx vertx;
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            server = vertx.createHttpServer().requestHandler(request -> {
                long[] size = {0};
                request.handler(chunk -> size[0] += chunk.length());
                request.endHandler(ended -> {
                    JsonObject headers = new JsonObject();
                    request.headers().forEach((name, value) -> headers.put(name.toLowerCase(), value));
                    String body = new JsonObject()
                            .put("method", request.method().name())
                            .put("path", request.path())
                            .put("uri", request.uri())
                            .put("query", request.query())
                            .put("headers", headers)
                            .put("bodyLength", size[0])
                            .encode();
                    long delay = request.path().endsWith("/slow") ? 3000 : 0;
                    Runnable answer = () -> request.response()
                            .putHeader("Content-Type", "application/json")
                            .putHeader("Access-Control-Allow-Origin", "https://service-must-not-decide.example")
                            .end(body);
                    if (delay > 0) {
                        vertx.setTimer(delay, timer -> answer.run());
                    } else {
                        answer.run();
                    }
                });
            }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("upstream server did not start", e);
        }
        String url = "http://127.0.0.1:" + server.actualPort();
        return Map.of(
                "gateway.service-urls.requests", url,
                "gateway.service-urls.members", url,
                "gateway.service-urls.catalogue", url,
                "gateway.service-urls.messaging", url,
                "gateway.service-urls.billing", "http://127.0.0.1:" + com.telemed.testkit.infra.FreePorts.next(),
                "gateway.service-urls.webhook", url,
                "gateway.upstream-timeout", "1s",
                "gateway.ops-api-key", GatewayEdgeTest.OPS_KEY);
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}

package com.telemed.gateway.edge;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;

/**
 * A real HTTP server on loopback standing in for the services behind the gateway (web-service's
 * pages included): it answers
 * every call with what it received (method, path, query, request target, headers, body size), and
 * {@code /v1/members/slow} answers only after three seconds. Billing points at a closed port.
 * {@link #EVENTS} tells what became of the calls on a path (opened, body ended, aborted); the first
 * call on a path ending in {@code /close-first} has its connection closed without an answer.
 * Paths under {@code /attachments/} answer a 3 MB file instead ({@link #answerAttachment}), as fast as
 * the gateway takes it ({@link #ENDLESS}: one that never ends); a download whose client stops reading
 * is cut after 2 s here (30 by default). {@code /internal/audit} answers no entries.
 *
 * <p>Beside it, in the same test JVM, a real OpenID Connect provider (issue #40): nav's
 * {@code mock-oauth2-server} with two issuers, {@value #OIDC_ISSUER} (the gateway's, with audience
 * {@value #OIDC_AUDIENCE}) and any other name, each with its own signing key, discovery and JWKS.
 * {@code POST /__token} here ({@link #TOKEN}) signs one of its tokens as the test asks (issuer,
 * audience, lifetime in seconds, negative for an expired one, claims), so a test in the Quarkus
 * application needs nothing of this class loader. requests-service's internal prescriber read
 * ({@code GET /internal/prescribers/:id}) answers as requests-service does: a prescriber for any id,
 * but {@link #UNKNOWN_PRESCRIBER} ({@code 404 Prescriber not found}) and {@link #UNAVAILABLE_PRESCRIBER}
 * ({@code 503}, requests-service down).
 */
public class UpstreamServer implements QuarkusTestResourceLifecycleManager {

    /** {@code GET /__events?path=...}: what happened to the calls on that path, in order. */
    static final String EVENTS = "/__events";

    /** Paths under it answer {@link #ATTACHMENT}, as messaging-service answers an attachment link. */
    static final String ATTACHMENTS = "/attachments/";
    static final byte[] ATTACHMENT = attachment();
    static final String ATTACHMENT_TYPE = "application/pdf";
    static final String ATTACHMENT_DISPOSITION = "attachment; filename=\"scan report.pdf\"; filename*=UTF-8''scan%20report.pdf";
    /** A link whose file name ends so answers a file that never ends ({@link #writeEndlessly}). */
    static final String ENDLESS = "/endless.bin";
    static final long ENDLESS_LENGTH = 1L << 30;
    /** {@code GET /internal/audit} (the gateway's audit fan-out) answers no entries. */
    static final String AUDIT = "/internal/audit";
    /** Response header of an attachment download: what the service received, as JSON. */
    static final String RECEIVED = "X-Upstream-Received";

    /** {@code POST /__token {issuer, audience, expiresIn, claims}}: a token of {@link #oidc}, as text. */
    static final String TOKEN = "/__token";
    public static final String OIDC_ISSUER = "gateway";
    public static final String OIDC_AUDIENCE = "telemed-ops";
    public static final String UNKNOWN_PRESCRIBER = "00000000-0000-4000-8000-000000000404";
    public static final String UNAVAILABLE_PRESCRIBER = "00000000-0000-4000-8000-000000000503";
    private static final String PRESCRIBERS = "/internal/prescribers/";

    private final Map<String, List<String>> events = new ConcurrentHashMap<>();
    private Vertx vertx;
    private HttpServer server;
    private MockOAuth2Server oidc;

    private void record(String path, String event) {
        events.computeIfAbsent(path, ignored -> new CopyOnWriteArrayList<>()).add(event);
    }

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            oidc = new MockOAuth2Server();
            oidc.start(InetAddress.getLoopbackAddress(), 0);
            server = vertx.createHttpServer().requestHandler(request -> {
                if (request.path().equals(EVENTS)) {
                    request.response().putHeader("Content-Type", "application/json")
                            .end(new JsonArray(events.getOrDefault(request.getParam("path"), List.of())).encode());
                    return;
                }
                if (request.path().equals(TOKEN)) {
                    request.body().onSuccess(body -> answerToken(request, body.toJsonObject()));
                    return;
                }
                if (request.path().startsWith(PRESCRIBERS)) {
                    answerPrescriber(request, request.path().substring(PRESCRIBERS.length()));
                    return;
                }
                String path = request.path();
                record(path, "opened");
                if (path.endsWith("/close-first") && events.get(path).size() == 1) {
                    // The first call on such a path: the connection closes without an answer.
                    request.connection().close();
                    return;
                }
                boolean[] aborted = {false};
                Runnable abort = () -> {
                    if (!aborted[0] && !request.response().ended()) {
                        aborted[0] = true;
                        record(path, "aborted");
                    }
                };
                request.exceptionHandler(failure -> abort.run());
                request.response().closeHandler(closed -> abort.run());
                long[] size = {0};
                request.handler(chunk -> size[0] += chunk.length());
                request.endHandler(ended -> {
                    record(path, "body ended");
                    if (path.startsWith(ATTACHMENTS)) {
                        answerAttachment(request);
                        return;
                    }
                    if (path.equals(AUDIT)) {
                        // The auditing services it stands for keep no entries (audit.AuditTrailTest's billing does).
                        request.response().putHeader("Content-Type", "application/json").end("{\"entries\":[]}");
                        return;
                    }
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
        return Map.ofEntries(
                Map.entry("platform.service-urls.requests-service", url),
                Map.entry("platform.service-urls.members-service", url),
                Map.entry("platform.service-urls.catalogue-service", url),
                Map.entry("platform.service-urls.messaging-service", url),
                Map.entry("platform.service-urls.billing-service", "http://127.0.0.1:" + com.telemed.testkit.infra.FreePorts.next()),
                Map.entry("platform.service-urls.webhook-service", url),
                Map.entry("platform.service-urls.web-service", url),
                Map.entry("gateway.upstream-timeout", "1s"),
                Map.entry("gateway.body-stall-timeout", "1s"),
                Map.entry("gateway.download-pace.window", "2s"),
                Map.entry("gateway.download-pace.min-bytes-per-second", "1024"),
                Map.entry("test.upstream-url", url),
                Map.entry("gateway.ops-api-key", GatewayEdgeTest.OPS_KEY),
                Map.entry("platform.identity.oidc.issuer", oidc.issuerUrl(OIDC_ISSUER).toString()),
                Map.entry("platform.identity.oidc.audience", OIDC_AUDIENCE));
    }

    /** A token of the provider: signed by the issuer's key, {@code iss} its URL, {@code sub} a new id. */
    private void answerToken(HttpServerRequest request, JsonObject asked) {
        String issuer = asked.getString("issuer", OIDC_ISSUER);
        var callback = new DefaultOAuth2TokenCallback(issuer, java.util.UUID.randomUUID().toString(), "JWT",
                List.of(asked.getString("audience", OIDC_AUDIENCE)), asked.getJsonObject("claims", new JsonObject()).getMap(),
                asked.getLong("expiresIn", 300L));
        String token = oidc.issueToken(issuer, "telemed-console", callback).serialize();
        request.response().putHeader("Content-Type", "text/plain").end(token);
    }

    /** requests-service's {@code GET /internal/prescribers/:id}. */
    private static void answerPrescriber(HttpServerRequest request, String id) {
        HttpServerResponse response = request.response().putHeader("Content-Type", "application/json");
        switch (id) {
            case UNKNOWN_PRESCRIBER -> response.setStatusCode(404).end("{\"error\":\"Prescriber not found\"}");
            case UNAVAILABLE_PRESCRIBER -> response.setStatusCode(503).end("{\"error\":\"Service Unavailable\"}");
            default -> response.end(new JsonObject().put("prescriber", new JsonObject().put("id", id)
                    .put("name", "Dr Test").put("email", "prescriber@example.com")
                    .put("createdAt", "2026-11-29T09:00:00.000Z")).encode());
        }
    }

    /**
     * An attachment download as messaging-service answers one: {@link #ATTACHMENT} in 64 KB writes
     * with its length, type and disposition (headers only on {@code HEAD}), and in
     * {@link #RECEIVED} what the call arrived with (method, target, headers), since the gateway
     * relays no body of the service's but the file.
     */
    private static void answerAttachment(HttpServerRequest request) {
        JsonObject headers = new JsonObject();
        request.headers().forEach((name, value) -> headers.put(name.toLowerCase(), value));
        HttpServerResponse response = request.response()
                .putHeader("Content-Type", ATTACHMENT_TYPE)
                .putHeader("Content-Disposition", ATTACHMENT_DISPOSITION)
                .putHeader("Content-Length", String.valueOf(ATTACHMENT.length))
                .putHeader(RECEIVED, new JsonObject().put("method", request.method().name()).put("uri", request.uri())
                        .put("headers", headers).encode());
        if (request.method() == HttpMethod.HEAD) {
            response.end();
            return;
        }
        if (request.path().endsWith(ENDLESS)) {
            response.putHeader("Content-Length", String.valueOf(ENDLESS_LENGTH));
            writeEndlessly(response);
            return;
        }
        writeFrom(response, 0);
    }

    /**
     * A file larger than every buffer between here and a client (1 GiB declared), written only as
     * the gateway takes it: a client that stops reading fills the buffers, and the gateway's pace
     * ({@code DownloadPace}) must cut it. It ends when the connection does.
     */
    private static void writeEndlessly(HttpServerResponse response) {
        Buffer chunk = Buffer.buffer(Arrays.copyOf(ATTACHMENT, 64 * 1024));
        while (!response.closed() && !response.writeQueueFull()) {
            response.write(chunk);
        }
        if (!response.closed()) {
            response.drainHandler(drained -> writeEndlessly(response));
        }
    }

    /**
     * Writes the file from {@code offset} on as the gateway takes it (as messaging-service's writes
     * block while its client reads nothing): a download the gateway cuts ends here before the last
     * byte, which {@link #EVENTS} tells as {@code aborted}.
     */
    private static void writeFrom(HttpServerResponse response, int offset) {
        int at = offset;
        while (at < ATTACHMENT.length) {
            if (response.closed()) {
                return;
            }
            response.write(Buffer.buffer(Arrays.copyOfRange(ATTACHMENT, at, Math.min(ATTACHMENT.length, at + 64 * 1024))));
            at += 64 * 1024;
            if (response.writeQueueFull() && at < ATTACHMENT.length) {
                int next = at;
                response.drainHandler(drained -> writeFrom(response, next));
                return;
            }
        }
        response.end();
    }

    private static byte[] attachment() {
        byte[] bytes = new byte[3 * 1024 * 1024 + 17];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + i / 251);
        }
        return bytes;
    }

    @Override
    public void stop() {
        if (oidc != null) {
            oidc.shutdown();
        }
        if (vertx != null) {
            vertx.close();
        }
    }
}

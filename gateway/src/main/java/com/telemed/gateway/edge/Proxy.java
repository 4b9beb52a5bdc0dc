package com.telemed.gateway.edge;

import com.telemed.common.access.Principal;
import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Hands a call to its service and streams the answer back. A JSON body (bounded at 100 KB) is read
 * whole first; an upload and every answer flow through without being held whole. Credentials and
 * any client-sent partner header or service proof stay at the edge; the service gets the partner id
 * the edge authenticated, the request id, and a service proof ({@link ServiceProof}) of this
 * forward: its method, the target sent and that partner id (none on operator routes and on the
 * public attachment links), without which a service serves nothing.
 */
@ApplicationScoped
public class Proxy {

    static final String PARTNER_HEADER = "X-Partner-Id";
    private static final Logger LOG = Logger.getLogger(Proxy.class);
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> NOT_FORWARDED = Set.of(
            "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
            "transfer-encoding", "upgrade", "host", "x-partner-id", "x-api-key", "x-ops-key",
            "x-service-publishable-key", "x-request-id", "x-service-timestamp", "x-service-proof",
            // Issue #40: bearer credentials (session tokens, pharmacy keys) stay at the edge, and the
            // principal a service gets is only ever the one the edge authenticated.
            "authorization", "x-principal",
            // Issue #41: where the client called is the edge's to say (forwardedHeaders), never the client's.
            "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port",
            "x-forwarded-prefix", "x-forwarded-server", "x-forwarded-ssl");

    private final Vertx vertx;
    private final HttpClient client;
    private final GatewayConfig config;
    private final UpstreamUrls urls;
    private final ServiceTrust trust;

    public Proxy(Vertx vertx, GatewayConfig config, UpstreamUrls urls, ServiceTrust trust) {
        this.vertx = vertx;
        this.config = config;
        this.urls = urls;
        this.trust = trust;
        // No client span per forward (issue 44: a tenth of the gateway's CPU per call went to starting, ending
        // and injecting it): the service continues the trace from the gateway's own span, whose traceparent
        // Edge puts where the forward copies headers from.
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setKeepAlive(true)
                .setConnectTimeout(2000)
                .setTcpNoDelay(true)
                .setTracingPolicy(TracingPolicy.IGNORE), new PoolOptions().setHttp1MaxSize(200));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /**
     * Forwards the (paused) request; {@code partnerId} is null on operator and public routes,
     * {@code principal} (sent as {@code X-Principal}) is null on all but operator routes. The body limit
     * is the route's, never the client's {@code Content-Type}: only upload routes take the
     * multipart limit. A JSON body (at most 100 KB) is read whole before the service is called, so a
     * slow or vanished client never holds one of the service's connections and nothing over the
     * limit ever reaches a service; an upload streams through. A client that goes away ends the
     * forward, and a body that stops arriving for {@code body-stall-timeout} is answered 408.
     */
    void forward(HttpServerRequest request, String path, Upstream upstream, String partnerId, Principal principal,
                 String requestId) {
        boolean upload = Routes.takesUpload(request.method().name(), path);
        long limit = upload ? config.multipartBodyLimit() : config.jsonBodyLimit();
        String tooLarge = upload ? "File too large" : "Payload Too Large";
        String declaredLength = request.getHeader("Content-Length");
        if (declaredLength != null && parseLength(declaredLength) > limit) {
            EdgeResponses.errorAndClose(request, 413, tooLarge);
            return;
        }
        Forward forward = new Forward(request, path, upstream, partnerId, principal, requestId, limit, tooLarge);
        if (upload) {
            forward.open(null);
        } else {
            forward.readWholeBodyThenOpen();
        }
    }

    /** One call on its way to a service: the body's bookkeeping, its stall timer and its upstream request. */
    private final class Forward {

        private final HttpServerRequest request;
        private final HttpServerResponse response;
        private final String path;
        private final Upstream upstream;
        private final String partnerId;
        private final Principal principal;
        private final String requestId;
        private final long limit;
        private final String tooLarge;
        private final long stallNanos;
        private long received;
        private long lastChunkNanos = System.nanoTime();
        private long stallTimer = -1;
        private HttpClientRequest upstreamRequest;
        private boolean refused;
        private boolean waitingForService;
        private boolean upstreamEnded;

        Forward(HttpServerRequest request, String path, Upstream upstream, String partnerId, Principal principal,
                String requestId, long limit, String tooLarge) {
            this.request = request;
            this.response = request.response();
            this.path = path;
            this.upstream = upstream;
            this.partnerId = partnerId;
            this.principal = principal;
            this.requestId = requestId;
            this.limit = limit;
            this.tooLarge = tooLarge;
            this.stallNanos = config.bodyStallTimeout().toNanos();
            response.closeHandler(closed -> clientGone());
            request.exceptionHandler(failure -> clientGone());
        }

        void readWholeBodyThenOpen() {
            Buffer body = Buffer.buffer();
            watchForStall();
            request.handler(chunk -> {
                if (counted(chunk)) {
                    body.appendBuffer(chunk);
                }
            });
            request.endHandler(ended -> {
                cancelStallTimer();
                if (!refused) {
                    open(body);
                }
            });
            request.resume();
        }

        /** Opens the upstream request: with the whole {@code body}, or (null) streaming the client's body. */
        void open(Buffer body) {
            open(body, false);
        }

        private void open(Buffer body, boolean retried) {
            String target = request.query() == null ? path : path + "?" + request.query();
            RequestOptions options = new RequestOptions()
                    .setMethod(request.method())
                    .setHost(urls.of(upstream).getHost())
                    .setPort(urls.of(upstream).getPort())
                    .setURI(target);
            client.request(options).onComplete(opened -> {
                if (opened.failed() && sendsOnceMore(body, retried, opened.cause())) {
                    open(body, true);
                    return;
                }
                if (opened.failed()) {
                    fail(response, opened.cause(), upstream);
                    return;
                }
                upstreamRequest = opened.result();
                if (response.closed()) {
                    upstreamRequest.reset();
                    return;
                }
                copyHeaders(request.headers(), upstreamRequest.headers());
                upstreamRequest.putHeader("X-Request-Id", requestId);
                upstreamRequest.putHeader("X-Forwarded-For", request.remoteAddress().hostAddress());
                forwardedHeaders(request, upstreamRequest.headers());
                if (partnerId != null) {
                    upstreamRequest.putHeader(PARTNER_HEADER, partnerId);
                }
                if (principal != null) {
                    upstreamRequest.putHeader(Principal.HEADER, principal.header());
                }
                // The proof covers the principal: a service believes X-Principal only because of it.
                ServiceProof.Signature proof = trust.sign(request.method().name(), target, partnerId,
                        principal == null ? null : principal.header());
                upstreamRequest.putHeader(ServiceProof.TIMESTAMP_HEADER, proof.timestamp());
                upstreamRequest.putHeader(ServiceProof.PROOF_HEADER, proof.proof());
                upstreamRequest.response().onComplete(answered -> {
                    if (answered.failed() && sendsOnceMore(body, retried, answered.cause())) {
                        open(body, true);
                    } else if (answered.failed()) {
                        upstreamEnded = true;
                        fail(response, answered.cause(), upstream);
                    } else {
                        answered.result().end().onComplete(ended -> upstreamEnded = true);
                        relay(answered.result(), response, Routes.isAttachmentLink(path));
                    }
                });
                if (body != null) {
                    if (body.length() > 0 || request.getHeader("Content-Length") != null) {
                        upstreamRequest.putHeader("Content-Length", String.valueOf(body.length()));
                    }
                    upstreamRequest.end(body);
                    upstreamRequest.idleTimeout(config.upstreamTimeout().toMillis());
                } else {
                    streamBody();
                }
            });
        }

        /**
         * Whether a call that failed with {@code cause} is sent once more: only a read (GET, HEAD,
         * OPTIONS), only once, and only when the service closed the connection under it (a kept-alive
         * connection it had closed, taken from the pool as it went). Nothing else is ever repeated.
         */
        private boolean sendsOnceMore(Buffer body, boolean retried, Throwable cause) {
            boolean again = !retried && body != null && SAFE_METHODS.contains(request.method().name())
                    && cause instanceof HttpClosedException && !response.closed();
            if (again) {
                LOG.infof("%s closed the connection before answering; %s sent once more", upstream, request.method());
            }
            return again;
        }

        /**
         * Streams the body on, then waits at most the upstream timeout for the service's answer: that
         * timeout starts once the whole body is sent, so a slow upload (10 MB from a slow client) is
         * not cut off as if the service had not answered.
         */
        private void streamBody() {
            if (request.getHeader("Content-Length") == null && request.getHeader("Transfer-Encoding") != null) {
                upstreamRequest.setChunked(true);
            }
            watchForStall();
            request.handler(chunk -> {
                if (!counted(chunk)) {
                    return;
                }
                upstreamRequest.write(chunk);
                if (upstreamRequest.writeQueueFull()) {
                    // The service is the slow side: no stall is counted against the client meanwhile.
                    waitingForService = true;
                    request.pause();
                    upstreamRequest.drainHandler(drained -> {
                        waitingForService = false;
                        lastChunkNanos = System.nanoTime();
                        request.resume();
                    });
                }
            });
            request.endHandler(ended -> {
                cancelStallTimer();
                if (!refused) {
                    upstreamRequest.end();
                    upstreamRequest.idleTimeout(config.upstreamTimeout().toMillis());
                }
            });
            request.resume();
        }

        /** Counts a chunk; false once the body crossed the limit (answered 413, the forward dropped). */
        private boolean counted(Buffer chunk) {
            if (refused) {
                return false;
            }
            lastChunkNanos = System.nanoTime();
            received += chunk.length();
            if (received > limit) {
                // Answered first, so the forward's failure that the reset causes finds it answered.
                refuse(413, tooLarge);
                return false;
            }
            return true;
        }

        private void refuse(int status, String error) {
            refused = true;
            cancelStallTimer();
            request.handler(null);
            EdgeResponses.errorAndClose(request, status, error);
            resetUpstream();
        }

        /** The client went away (mid-body or while waiting): the service's side of the call goes too. */
        private void clientGone() {
            refused = true;
            cancelStallTimer();
            resetUpstream();
        }

        /**
         * Drops the forward while it is in flight, never after the service's answer ended: on HTTP/1.x
         * Vert.x's reset of a completed request closes its former connection, which the pool may
         * already have given to another call (eclipse-vertx/vert.x#6294, its fix reverted); that
         * call then failed with HttpClosedException and its caller got 503. A service that answers
         * before the whole upload arrived (a 404 for an unknown conversation) made exactly that.
         */
        private void resetUpstream() {
            if (upstreamRequest != null && !upstreamEnded) {
                upstreamRequest.reset();
            }
        }

        /** Re-armed for what is left of the window, so a steady body costs one timer per window, not one per chunk. */
        private void watchForStall() {
            long wait = Math.max(1, (lastChunkNanos + stallNanos - System.nanoTime()) / 1_000_000);
            stallTimer = vertx.setTimer(wait, fired -> {
                stallTimer = -1;
                if (refused) {
                    return;
                }
                if (!waitingForService && System.nanoTime() - lastChunkNanos >= stallNanos) {
                    LOG.warnf("a body to %s stalled: %d bytes, none for %d ms", upstream, received, stallNanos / 1_000_000);
                    refuse(408, "Request Timeout");
                } else {
                    watchForStall();
                }
            });
        }

        private void cancelStallTimer() {
            if (stallTimer >= 0) {
                vertx.cancelTimer(stallTimer);
                stallTimer = -1;
            }
        }
    }

    private void relay(HttpClientResponse answer, HttpServerResponse response, boolean download) {
        if (response.ended() || response.closed()) {
            answer.request().reset();
            return;
        }
        response.setStatusCode(answer.statusCode());
        answer.headers().forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!NOT_FORWARDED.contains(lower) && !lower.startsWith("access-control-")) {
                response.headers().add(name, value);
            }
        });
        if (answer.getHeader("Content-Length") == null) {
            response.setChunked(true);
        }
        if (download) {
            DownloadPace.relay(vertx, config.downloadPace(), answer, response);
        } else {
            answer.pipeTo(response);
        }
    }

    private static void fail(HttpServerResponse response, Throwable cause, Upstream upstream) {
        if (response.ended() || response.closed()) {
            // The gateway already answered (a body over the limit, a stall) and dropped the forward
            // itself, or the client went away and the forward was dropped for it.
            return;
        }
        if (isTimeout(cause)) {
            LOG.warnf("%s did not answer in time", upstream);
            EdgeResponses.error(response, 504, "Gateway Timeout");
        } else {
            LOG.warnf("%s unreachable: %s", upstream, cause.getClass().getSimpleName());
            EdgeResponses.error(response, 503, "Service Unavailable");
        }
    }

    private static boolean isTimeout(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException || t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
            if (t instanceof ConnectException) {
                return false;
            }
        }
        return false;
    }

    /**
     * The public address the client called, for a service that writes absolute links back to it (the
     * console's OpenID Connect {@code redirect_uri}, issue #41): {@code X-Forwarded-Host} (host and port as
     * the client named them) and {@code X-Forwarded-Proto}. Both are what this edge saw, after its own
     * proxy settings: behind a trusted Ingress, the Ingress's public host and scheme; otherwise the
     * request's own. A client's own forwarded headers never go on ({@link #NOT_FORWARDED}).
     */
    static void forwardedHeaders(HttpServerRequest request, MultiMap to) {
        HostAndPort authority = request.authority();
        if (authority != null && !authority.host().isEmpty()) {
            to.set("X-Forwarded-Host", authority.port() < 0 ? authority.host() : authority.host() + ":" + authority.port());
        }
        to.set("X-Forwarded-Proto", request.scheme() == null ? "http" : request.scheme());
    }

    private static void copyHeaders(MultiMap from, MultiMap to) {
        from.forEach((name, value) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                to.add(name, value);
            }
        });
    }

    static long parseLength(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}

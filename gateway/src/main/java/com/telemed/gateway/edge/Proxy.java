package com.telemed.gateway.edge;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Streams a call to its service and the answer back, both bodies flowing through without being
 * held whole. Credentials and any client-sent partner header or service proof stay at the edge; the
 * service gets the partner id the edge authenticated, the request id, and a service proof
 * ({@link ServiceProof}) of this forward: its method, the target sent and that partner id (none on
 * operator routes), without which a service serves nothing.
 */
@ApplicationScoped
public class Proxy {

    static final String PARTNER_HEADER = "X-Partner-Id";
    private static final Logger LOG = Logger.getLogger(Proxy.class);
    private static final Set<String> NOT_FORWARDED = Set.of(
            "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
            "transfer-encoding", "upgrade", "host", "x-partner-id", "x-api-key", "x-ops-key",
            "x-service-publishable-key", "x-request-id", "x-service-timestamp", "x-service-proof");

    private final HttpClient client;
    private final GatewayConfig config;
    private final ServiceTrust trust;

    public Proxy(Vertx vertx, GatewayConfig config, ServiceTrust trust) {
        this.config = config;
        this.trust = trust;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setKeepAlive(true)
                .setConnectTimeout(2000)
                .setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(200));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** Forwards the (paused) request; {@code partnerId} is null on operator routes. */
    void forward(HttpServerRequest request, String path, Upstream upstream, String partnerId, String requestId) {
        HttpServerResponse response = request.response();
        boolean multipart = contentType(request).startsWith("multipart/");
        long limit = multipart ? config.multipartBodyLimit() : config.jsonBodyLimit();
        String tooLarge = multipart ? "File too large" : "Payload Too Large";
        String declaredLength = request.getHeader("Content-Length");
        if (declaredLength != null && parseLength(declaredLength) > limit) {
            EdgeResponses.errorAndClose(request, 413, tooLarge);
            return;
        }
        URI service = config.urlOf(upstream);
        String query = request.query();
        String target = query == null ? path : path + "?" + query;
        RequestOptions options = new RequestOptions()
                .setMethod(request.method())
                .setHost(service.getHost())
                .setPort(service.getPort())
                .setURI(target);
        client.request(options).onComplete(opened -> {
            if (opened.failed()) {
                fail(response, opened.cause(), upstream);
                return;
            }
            HttpClientRequest upstreamRequest = opened.result();
            copyHeaders(request.headers(), upstreamRequest.headers());
            upstreamRequest.putHeader("X-Request-Id", requestId);
            upstreamRequest.putHeader("X-Forwarded-For", request.remoteAddress().hostAddress());
            if (partnerId != null) {
                upstreamRequest.putHeader(PARTNER_HEADER, partnerId);
            }
            ServiceProof.Signature proof = trust.sign(request.method().name(), target, partnerId);
            upstreamRequest.putHeader(ServiceProof.TIMESTAMP_HEADER, proof.timestamp());
            upstreamRequest.putHeader(ServiceProof.PROOF_HEADER, proof.proof());
            if (declaredLength == null && request.getHeader("Transfer-Encoding") != null) {
                upstreamRequest.setChunked(true);
            }
            upstreamRequest.response().onComplete(answered -> {
                if (answered.failed()) {
                    fail(response, answered.cause(), upstream);
                } else {
                    relay(answered.result(), response);
                }
            });
            streamBody(request, upstreamRequest, limit, tooLarge, config.upstreamTimeout().toMillis());
        });
    }

    /**
     * Streams the body on, then waits at most {@code timeoutMs} for the service's answer: the
     * upstream timeout starts once the whole body is sent, so a slow upload (10 MB from a slow
     * client) is not cut off as if the service had not answered.
     */
    private static void streamBody(HttpServerRequest request, HttpClientRequest upstreamRequest, long limit, String tooLarge,
                                   long timeoutMs) {
        long[] received = {0};
        request.handler(chunk -> {
            received[0] += chunk.length();
            if (received[0] > limit) {
                // A chunked body crossed the limit: drop the forward, answer for the gateway.
                // Answered first, so the forward's failure that the reset causes finds it answered.
                request.handler(null);
                EdgeResponses.errorAndClose(request, 413, tooLarge);
                upstreamRequest.reset();
                return;
            }
            upstreamRequest.write(chunk);
            if (upstreamRequest.writeQueueFull()) {
                request.pause();
                upstreamRequest.drainHandler(drained -> request.resume());
            }
        });
        request.endHandler(ended -> {
            if (received[0] <= limit) {
                upstreamRequest.end();
                upstreamRequest.idleTimeout(timeoutMs);
            }
        });
        request.resume();
    }

    private static void relay(HttpClientResponse answer, HttpServerResponse response) {
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
        answer.pipeTo(response);
    }

    private static void fail(HttpServerResponse response, Throwable cause, Upstream upstream) {
        if (response.ended()) {
            // The gateway already answered (a body over the limit) and dropped the forward itself.
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

    private static void copyHeaders(MultiMap from, MultiMap to) {
        from.forEach((name, value) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                to.add(name, value);
            }
        });
    }

    private static String contentType(HttpServerRequest request) {
        String type = request.getHeader("Content-Type");
        return type == null ? "" : type.toLowerCase(Locale.ROOT);
    }

    static long parseLength(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}

package com.telemed.bench.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import com.telemed.testkit.infra.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The partners' webhook receiver: two Vert.x servers on one port (one per event loop used), each
 * POST answered 200 as soon as its body is in. Counts distinct {@code X-Webhook-Id}s and POSTs per
 * round, notes when the round's target was reached, and, on {@code /hooks/latency}, when each
 * request's {@code item.approved} arrived (nanoTime and wall clock) and whether it was signed right.
 */
final class Receiver {

    record Arrival(long nanos, long millis, boolean signed) {
    }

    private volatile int port;
    private final AtomicLong posts = new AtomicLong();
    private volatile Map<String, Boolean> ids = new ConcurrentHashMap<>();
    private volatile int target = Integer.MAX_VALUE;
    private final AtomicLong reachedAt = new AtomicLong();
    final Map<String, Arrival> approved = new ConcurrentHashMap<>();
    final AtomicInteger latencyPosts = new AtomicInteger();
    final Map<String, Boolean> latencyIds = new ConcurrentHashMap<>();
    volatile String latencySecret;

    private Receiver() {
    }

    static Receiver start(Vertx vertx) throws Exception {
        Receiver receiver = new Receiver();
        receiver.port = FreePorts.next();
        // Two servers on one port: Vert.x spreads the connections over both servers' event loops.
        for (int i = 0; i < 2; i++) {
            vertx.createHttpServer().requestHandler(receiver::handle)
                    .listen(receiver.port, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
        }
        return receiver;
    }

    int port() {
        return port;
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    private void handle(HttpServerRequest request) {
        request.body().onComplete(body -> {
            long nanos = System.nanoTime();
            record(request, body.succeeded() ? body.result() : Buffer.buffer(), nanos);
            request.response().setStatusCode(200).end();
        });
    }

    private void record(HttpServerRequest request, Buffer body, long nanos) {
        posts.incrementAndGet();
        String id = request.getHeader("X-Webhook-Id");
        if (id != null && ids.putIfAbsent(id, Boolean.TRUE) == null && ids.size() >= target) {
            reachedAt.compareAndSet(0, nanos);
        }
        if (request.path().equals("/hooks/latency")) {
            latencyPosts.incrementAndGet();
            if (id != null) {
                latencyIds.put(id, Boolean.TRUE);
            }
            try {
                JsonNode json = GatewayApi.JSON.readTree(body.getBytes());
                if ("item.approved".equals(json.path("event").asText())) {
                    boolean signed = signed(request, body.getBytes());
                    approved.putIfAbsent(json.path("requestId").asText(), new Arrival(nanos, System.currentTimeMillis(), signed));
                }
            } catch (Exception e) {
                System.out.println("receiver: unreadable body on /hooks/latency (" + e.getClass().getSimpleName() + ")");
            }
        }
    }

    private boolean signed(HttpServerRequest request, byte[] body) {
        try {
            String timestamp = request.getHeader("X-Webhook-Timestamp");
            String expected = Webhooks.signature(latencySecret, timestamp, body);
            String actual = request.getHeader("X-Webhook-Signature");
            return actual != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                    actual.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            return false;
        }
    }

    void startRound(int expected) {
        ids = new ConcurrentHashMap<>(expected * 2);
        posts.set(0);
        reachedAt.set(0);
        target = expected;
    }

    int distinct() {
        return ids.size();
    }

    long posts() {
        return posts.get();
    }

    long reachedAt() {
        return reachedAt.get();
    }
}

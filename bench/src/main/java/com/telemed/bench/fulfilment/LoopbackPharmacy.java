package com.telemed.bench.fulfilment;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import com.telemed.testkit.infra.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pharmacy of the benchmark, in the bench JVM: two Vert.x servers on one loopback port (one per
 * event loop used), HTTP/1.1 only (no h2c upgrade, as a plain pharmacy endpoint), speaking
 * requests-service's pharmacy protocol ({@code pharmacy.HttpPharmacy}): each {@code POST} answered
 * {@code 201 {"orderId": "PH-<n>"}} as soon as its body is in, {@code n} counting up, so every order
 * gets an id of its own. A repeated {@code Idempotency-Key} is answered with its first order id, as
 * a pharmacy that drops repeats would, and counted. Per {@link Round}: posts, distinct keys, repeats,
 * keys that do not match the body's {@code orderReference}, connections opened, and each order's
 * arrival ({@code nanoTime}) with the client's port, so the orders can be told apart by the JVM that
 * sent them ({@link SocketOwners}). The first order body it ever receives is kept: the ceiling posts
 * that shape.
 */
final class LoopbackPharmacy {

    /** One order as it arrived: when, and from which client port. */
    record Arrival(long nanos, int clientPort) {
    }

    /** What one round of orders looked like at the pharmacy. */
    static final class Round {
        final AtomicLong posts = new AtomicLong();
        final Map<String, String> orders = new ConcurrentHashMap<>();
        final AtomicLong repeats = new AtomicLong();
        final AtomicLong mismatched = new AtomicLong();
        final AtomicInteger connections = new AtomicInteger();
        final ConcurrentLinkedQueue<Arrival> arrivals = new ConcurrentLinkedQueue<>();

        /** Arrival times in order. */
        List<Arrival> sorted() {
            return arrivals.stream().sorted((a, b) -> Long.compare(a.nanos(), b.nanos())).toList();
        }

        long firstNanos() {
            return arrivals.stream().mapToLong(Arrival::nanos).min().orElse(0);
        }

        long lastNanos() {
            return arrivals.stream().mapToLong(Arrival::nanos).max().orElse(0);
        }
    }

    /** The first order body received and its orderReference: the template of the ceiling's orders. */
    record Sample(byte[] body, String orderReference) {
    }

    private final AtomicLong orderNumbers = new AtomicLong();
    private volatile Round round = new Round();
    private volatile Sample sample;
    private int port;

    private LoopbackPharmacy() {
    }

    static LoopbackPharmacy start(Vertx vertx) throws Exception {
        LoopbackPharmacy pharmacy = new LoopbackPharmacy();
        pharmacy.port = FreePorts.next();
        for (int i = 0; i < 2; i++) {
            vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
                    .connectionHandler(connection -> pharmacy.round.connections.incrementAndGet())
                    .requestHandler(pharmacy::handle)
                    .listen(pharmacy.port, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
        }
        return pharmacy;
    }

    int port() {
        return port;
    }

    String url() {
        return "http://127.0.0.1:" + port + "/orders";
    }

    /** Starts counting a new round; returns it. */
    Round startRound() {
        Round fresh = new Round();
        round = fresh;
        return fresh;
    }

    Sample sample() {
        return sample;
    }

    private void handle(HttpServerRequest request) {
        Round current = round;
        int clientPort = request.remoteAddress().port();
        request.body().onComplete(read -> {
            long nanos = System.nanoTime();
            Buffer body = read.succeeded() ? read.result() : Buffer.buffer();
            String key = request.getHeader("Idempotency-Key");
            String reference = null;
            try {
                JsonNode order = GatewayApi.JSON.readTree(body.getBytes());
                reference = order == null ? null : order.path("orderReference").asText(null);
            } catch (Exception unreadable) {
                // counted as a mismatch below
            }
            if (key == null || !key.equals(reference)) {
                current.mismatched.incrementAndGet();
            }
            if (sample == null && reference != null) {
                sample = new Sample(body.getBytes(), reference);
            }
            current.posts.incrementAndGet();
            current.arrivals.add(new Arrival(nanos, clientPort));
            String id = "PH-" + orderNumbers.incrementAndGet();
            String given = current.orders.putIfAbsent(key == null ? "missing-" + id : key, id);
            if (given != null) {
                current.repeats.incrementAndGet();
                id = given;
            }
            request.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                    .end("{\"orderId\":\"" + id + "\"}");
        });
    }
}

package com.telemed.bench.webhook;

import com.telemed.bench.support.Results;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The measurement of the ceiling: the same receiver driven by the client webhook-service sends with,
 * without Kafka or the database. A Vert.x HttpClient with {@code Sender}'s options (keep-alive with
 * its idle timeout, pool sized to the replica's bound, connect timeout, no compression), used as
 * {@code Sender} uses it (every request on one event-loop context, the body read to its end without
 * a handler), the same request options (server address given, Host, no redirects) and headers, bodies
 * of the same shape signed the same way; {@code concurrency} requests in flight, each completion
 * starting the next.
 */
final class DeliveryCeiling {

    record Result(int requests, long failed, String firstFailure, double seconds, Histogram latencies) {
        double perSecond() {
            return requests / seconds;
        }

        /** Kept as {@code <prefix>.perSecond}, {@code .p50Ms}, {@code .p99Ms} (of each POST). */
        void record(Results results, String prefix, String label) {
            results.load(prefix, label, perSecond(), "events/s", latencies.getValueAtPercentile(50) / 1000.0,
                    latencies.getValueAtPercentile(99) / 1000.0, Results.Role.DETAIL);
            results.record(prefix + ".failed", failed, "POSTs", label + ", failed POSTs");
        }

        void print(String name) {
            System.out.printf("%-34s %7.0f events/s   (%d POSTs in %.1f s, %d failed%s; each p50 %.1f ms, p99 %.1f ms)%n",
                    name, perSecond(), requests, seconds, failed, failed == 0 ? "" : ", first: " + firstFailure,
                    latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0);
        }
    }

    private DeliveryCeiling() {
    }

    static Result run(Vertx vertx, Receiver receiver, int requests, int concurrency) throws Exception {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setMaxPoolSize(Webhooks.MAX_IN_FLIGHT)
                .setConnectTimeout(10_000)
                .setForceSni(true)
                .setVerifyHost(true)
                .setTryUseCompression(false)
                .setKeepAlive(true)
                .setKeepAliveTimeout(2));
        String secret = HexFormat.of().formatHex(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8)).substring(0, 64);
        String timestamp = Long.toString(Instant.now().getEpochSecond());
        String[] bodies = new String[requests];
        String[] signatures = new String[requests];
        String[] ids = new String[requests];
        for (int i = 0; i < requests; i++) {
            bodies[i] = Webhooks.itemApproved(UUID.randomUUID().toString());
            signatures[i] = Webhooks.signature(secret, timestamp, bodies[i].getBytes(StandardCharsets.UTF_8));
            ids[i] = UUID.randomUUID().toString();
        }
        receiver.startRound(requests);
        Histogram latencies = new Histogram(60_000_000L, 3);
        AtomicInteger next = new AtomicInteger();
        AtomicLong failed = new AtomicLong();
        String[] firstFailure = new String[1];
        CountDownLatch done = new CountDownLatch(requests);
        long started = System.nanoTime();
        Runnable[] sendNext = new Runnable[1];
        sendNext[0] = () -> {
            int i = next.getAndIncrement();
            if (i >= requests) {
                return;
            }
            long sent = System.nanoTime();
            RequestOptions options = new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setServer(SocketAddress.inetSocketAddress(receiver.port(), "127.0.0.1"))
                    .setHost("127.0.0.1")
                    .setPort(receiver.port())
                    .setSsl(false)
                    .setURI("/hooks/ceiling")
                    .setFollowRedirects(false)
                    .setConnectTimeout(10_000)
                    .putHeader("Content-Type", "application/json")
                    .putHeader("User-Agent", Webhooks.USER_AGENT)
                    .putHeader("X-Webhook-Timestamp", timestamp)
                    .putHeader("X-Webhook-Signature", signatures[i])
                    .putHeader("X-Webhook-Id", ids[i]);
            client.request(options)
                    .compose(request -> request.send(Buffer.buffer(bodies[i])))
                    .compose(response -> response.end().map(ignored -> response.statusCode()))
                    .onComplete(answer -> {
                        synchronized (latencies) {
                            latencies.recordValue(Math.min(60_000_000L, Math.max(1, (System.nanoTime() - sent) / 1000)));
                        }
                        if (answer.failed() || answer.result() / 100 != 2) {
                            if (failed.incrementAndGet() == 1) {
                                firstFailure[0] = answer.failed() ? answer.cause().getClass().getSimpleName()
                                        : "HTTP " + answer.result();
                            }
                        }
                        done.countDown();
                        sendNext[0].run();
                    });
        };
        Context context = ((VertxInternal) vertx).createEventLoopContext();
        context.runOnContext(ignored -> {
            for (int i = 0; i < concurrency; i++) {
                sendNext[0].run();
            }
        });
        if (!done.await(DeliveryThroughput.ROUND_CAP.toSeconds(), TimeUnit.SECONDS)) {
            System.out.printf("  !! ceiling: %d of %d answered within %d s%n", requests - done.getCount(), requests,
                    DeliveryThroughput.ROUND_CAP.toSeconds());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return new Result(requests, failed.get(), firstFailure[0], seconds, latencies);
    }
}

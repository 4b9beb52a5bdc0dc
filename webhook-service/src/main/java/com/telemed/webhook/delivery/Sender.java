package com.telemed.webhook.delivery;

import com.telemed.webhook.address.WebhookUrls;
import com.telemed.webhook.config.WebhookConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One attempt: resolve and check the URL (DNS on a thread pool of its own, never the event loop),
 * then POST the stored bytes with the stored timestamp and signature through Vert.x's non-blocking
 * client, connecting to the address that was checked. Redirects are not followed. The whole
 * attempt (connect, send, response) is bounded by {@code webhook.attempt-timeout}.
 * Completes with an {@link Outcome}, never fails.
 */
@Singleton
public class Sender {

    public static final String USER_AGENT = "Service-Webhook/1.0";

    static final String TIMEOUT = "timeout";
    static final String CONNECTION_FAILED = "connection failed";
    static final String NO_URL = "webhook URL not set";

    private final Vertx vertx;
    private final WebhookUrls urls;
    private final long timeoutMs;
    private final HttpClient client;
    private final ThreadPoolExecutor dns;

    public Sender(Vertx vertx, WebhookUrls urls, WebhookConfig config) {
        this.vertx = vertx;
        this.urls = urls;
        this.timeoutMs = config.attemptTimeout().toMillis();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                // The pool is per host and port, and partners can share a host (a hosted receiver):
                // sized to the replica's bound, so only the dispatcher's per-partner bound applies.
                .setMaxPoolSize(Math.max(1, config.maxInFlight()))
                // A fresh connection per attempt. With reuse (even with a 1 s keep-alive), the retry
                // tests intermittently lost an attempt that never reached the receiver (a pooled
                // connection the receiver had closed), which burns one of the 3 attempts; measured
                // cost of no reuse under this machine's load: about 25% of end-to-end throughput.
                .setKeepAlive(false)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs))
                .setForceSni(true)
                .setVerifyHost(true)
                .setTryUseCompression(false));
        // Lookups are bounded by the attempts in flight (max-in-flight), so the pool needs no bound
        // of its own (a fixed one could reject a lookup while a finishing thread is still busy); a
        // partner whose DNS hangs holds threads of its own per-partner bound only.
        this.dns = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "webhook-dns");
                    thread.setDaemon(true);
                    return thread;
                });
    }

    public Future<Outcome> send(Job job) {
        Instant at = Instant.now();
        long started = System.nanoTime();
        Promise<Outcome> result = Promise.promise();
        if (job.url() == null) {
            result.complete(new Outcome(job, at, null, NO_URL, 0));
            return result.future();
        }
        Optional<URI> uri = WebhookUrls.parse(job.url());
        if (uri.isEmpty()) {
            result.complete(new Outcome(job, at, null, "invalid url", 0));
            return result.future();
        }
        Executor executor = dns;
        executor.execute(() -> {
            WebhookUrls.Target target;
            try {
                target = urls.target(uri.get());
            } catch (WebhookUrls.Refused refused) {
                result.complete(new Outcome(job, at, null, refused.getMessage(), elapsedMs(started)));
                return;
            }
            post(job, target, at, started, result);
        });
        return result.future();
    }

    private void post(Job job, WebhookUrls.Target target, Instant at, long started, Promise<Outcome> result) {
        AtomicBoolean done = new AtomicBoolean();
        long remaining = Math.max(1, timeoutMs - (System.nanoTime() - started) / 1_000_000);
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(target.port(), target.address().getHostAddress()))
                .setHost(target.host())
                .setPort(target.port())
                .setSsl(target.ssl())
                .setURI(target.requestUri())
                .setFollowRedirects(false)
                .setConnectTimeout(remaining)
                .putHeader("Content-Type", "application/json")
                .putHeader("User-Agent", USER_AGENT)
                .putHeader("X-Webhook-Timestamp", job.signedAt())
                .putHeader("X-Webhook-Signature", job.signature())
                .putHeader("X-Webhook-Id", job.id().toString());
        Buffer body = Buffer.buffer(job.body());
        HttpClientRequest[] sent = new HttpClientRequest[1];
        long timer = vertx.setTimer(remaining, id -> {
            if (done.compareAndSet(false, true)) {
                result.complete(new Outcome(job, at, null, TIMEOUT, elapsedMs(started)));
                HttpClientRequest request = sent[0];
                if (request != null) {
                    request.reset();
                }
            }
        });
        client.request(options)
                .compose(request -> {
                    sent[0] = request;
                    if (done.get()) {
                        request.reset();
                    }
                    return request.send(body);
                })
                // The body is ignored, but read to the end so the connection can be reused.
                .compose(response -> {
                    response.handler(ignored -> { });
                    return response.end().map(ignored -> response.statusCode());
                })
                .onComplete(answer -> {
                    vertx.cancelTimer(timer);
                    if (!done.compareAndSet(false, true)) {
                        return;
                    }
                    if (answer.succeeded()) {
                        result.complete(new Outcome(job, at, answer.result(), null, elapsedMs(started)));
                    } else {
                        result.complete(new Outcome(job, at, null, CONNECTION_FAILED, elapsedMs(started)));
                    }
                });
    }

    private static int elapsedMs(long started) {
        return (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - started) / 1_000_000);
    }

    @PreDestroy
    void close() {
        dns.shutdownNow();
        client.close();
    }
}

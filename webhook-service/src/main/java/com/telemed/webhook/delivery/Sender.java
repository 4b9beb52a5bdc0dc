package com.telemed.webhook.delivery;

import com.telemed.webhook.address.WebhookUrls;
import com.telemed.webhook.WebhookConfig;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Instant;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One attempt: sign the delivery if this is its first attempt, resolve and check the URL (DNS on a
 * thread pool of its own, never the event loop), then, on the sender's event loop, POST the stored
 * bytes with the delivery's timestamp and signature through Vert.x's non-blocking client,
 * connecting to the address that was checked. Redirects are
 * not followed. The whole attempt (connect, send, response) is bounded by
 * {@code webhook.attempt-timeout}. Completes with an {@link Outcome}, never fails.
 */
@Singleton
public class Sender {

    public static final String USER_AGENT = "Service-Webhook/1.0";

    static final String TIMEOUT = "timeout";
    static final String CONNECTION_FAILED = "connection failed";
    static final String NO_URL = "webhook URL not set";
    static final String SECRET_UNREADABLE = "webhook secret unreadable";

    private final Vertx vertx;
    /**
     * The one event loop every POST, timer and callback of an attempt runs on, so a pooled connection
     * and the attempts it carries share a thread. Requests used to be made straight from the DNS
     * threads: each such thread got a Vert.x context of its own on some event loop, while a reused
     * connection lived on another, so every response event crossed threads. One event loop sends far
     * more than the service needs (bench/webhook-delivery.sh measures the same client alone).
     */
    private final Context context;
    private final WebhookUrls urls;
    private final long timeoutMs;
    private final HttpClient pooled;
    private final HttpClient fresh;
    /** Connections that have carried a complete exchange: a failure on one of them may be staleness. */
    private final Set<HttpConnection> proven = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));
    private final ThreadPoolExecutor dns;
    /** URLs resolved and checked in the last {@link Targets#TTL_NANOS}: their attempts skip the DNS thread. */
    private final Targets targets = new Targets();

    public Sender(Vertx vertx, WebhookUrls urls, WebhookConfig config) {
        this.vertx = vertx;
        // Vert.x 4's internal API; the public way to a context of one's own is deploying a verticle.
        this.context = ((VertxInternal) vertx).createEventLoopContext();
        this.urls = urls;
        this.timeoutMs = config.attemptTimeout().toMillis();
        this.pooled = vertx.createHttpClient(options(config).setKeepAlive(true).setKeepAliveTimeout(2));
        this.fresh = vertx.createHttpClient(options(config).setKeepAlive(false));
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

    /**
     * Connections are reused (bursts to one receiver need no handshake per POST), and a POST that
     * fails on a reused connection before any response (the receiver closed it while idle) is sent
     * once more on a fresh connection within the same attempt and deadline, so a stale connection
     * never burns one of the 3 attempts. The receiver may then see that POST twice (same bytes,
     * same X-Webhook-Id), as the contract allows.
     */
    private HttpClientOptions options(WebhookConfig config) {
        return new HttpClientOptions()
                // The pool is per host and port, and partners can share a host (a hosted receiver):
                // sized to the replica's bound, so only the dispatcher's per-partner bound applies.
                .setMaxPoolSize(Math.max(1, config.maxInFlight()))
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs))
                .setForceSni(true)
                .setVerifyHost(true)
                .setTryUseCompression(false)
                // A delivery leaves the platform: no traceparent of ours goes to a partner's server.
                .setTracingPolicy(TracingPolicy.IGNORE);
    }

    /**
     * One attempt. A job not signed yet (the delivery's first attempt, or the first of a redelivery
     * round) is signed here, at the attempt's start: X-Webhook-Timestamp is the second this attempt
     * began, however long the delivery waited for a slot. The outcome carries the signed job, and the
     * recorder stores its timestamp and signature with this attempt for every later one.
     */
    public Future<Outcome> send(Job unsigned) {
        Instant at = Instant.now();
        long started = System.nanoTime();
        Job job = unsigned.signedAt(at);
        Promise<Outcome> result = Promise.promise();
        if (job.url() != null && !job.isSigned() && job.secretUnreadable()) {
            result.complete(new Outcome(job, at, null, SECRET_UNREADABLE, 0));
            return result.future();
        }
        if (job.url() == null || !job.isSigned()) {
            result.complete(new Outcome(job, at, null, NO_URL, 0));
            return result.future();
        }
        Optional<URI> uri = WebhookUrls.parse(job.url());
        if (uri.isEmpty()) {
            result.complete(new Outcome(job, at, null, "invalid url", 0));
            return result.future();
        }
        long now = System.nanoTime();
        WebhookUrls.Target known = targets.fresh(job.url(), now);
        if (known != null) {
            // Checked less than a second ago: no DNS thread, straight to the event loop (issue 44).
            context.runOnContext(ignored -> start(job, known, at, started, result));
            if (targets.refreshDue(job.url(), now)) {
                refresh(job.url(), uri.get());
            }
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
            targets.put(job.url(), target, System.nanoTime());
            context.runOnContext(ignored -> start(job, target, at, started, result));
        });
        return result.future();
    }

    /**
     * Resolves and checks a URL in use again on a DNS thread, beside the attempt that used it (issue 44, round 3): a
     * URL attempted at least every half second never ages out of {@link #targets}, so none of its attempts waits
     * for a DNS thread (at one event every 50 ms, 1 in 20 did: two thread hand-offs, the latency's tail). The
     * address an attempt uses is still one checked within the last second; a refusal removes the URL, so the next
     * attempt looks again and is refused.
     */
    private void refresh(String url, URI uri) {
        try {
            dns.execute(() -> {
                try {
                    targets.put(url, urls.target(uri), System.nanoTime());
                } catch (WebhookUrls.Refused | RuntimeException e) {
                    targets.forget(url);
                } finally {
                    targets.refreshed(url);
                }
            });
        } catch (RuntimeException e) {
            // The pool is shut down: the next attempt looks the URL up itself.
            targets.refreshed(url);
        }
    }

    /** On the sender's event loop: arms the attempt's deadline and makes the POST. */
    private void start(Job job, WebhookUrls.Target target, Instant at, long started, Promise<Outcome> result) {
        AtomicBoolean done = new AtomicBoolean();
        HttpClientRequest[] sent = new HttpClientRequest[1];
        long remaining = Math.max(1, timeoutMs - (System.nanoTime() - started) / 1_000_000);
        long timer = vertx.setTimer(remaining, id -> {
            if (done.compareAndSet(false, true)) {
                result.complete(new Outcome(job, at, null, TIMEOUT, elapsedMs(started)));
                HttpClientRequest request = sent[0];
                if (request != null) {
                    request.reset();
                }
            }
        });
        post(job, target, at, started, result, done, sent, timer, pooled);
    }

    private void post(Job job, WebhookUrls.Target target, Instant at, long started, Promise<Outcome> result,
                      AtomicBoolean done, HttpClientRequest[] sent, long timer, HttpClient client) {
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
        boolean[] reused = new boolean[1];
        boolean[] answered = new boolean[1];
        client.request(options)
                .compose(request -> {
                    sent[0] = request;
                    reused[0] = proven.contains(request.connection());
                    if (done.get()) {
                        request.reset();
                    }
                    return request.send(body);
                })
                // The body is ignored (without a data handler its chunks are dropped) but read to the end,
                // so the connection can be reused. No handler is set: on a response that has already
                // ended, handler() throws a bare IllegalStateException, which was recorded as
                // "connection failed" although the receiver had answered 2xx (seen as 2 to 13 per
                // 20,000 attempts, retried 2 s later as a duplicate POST).
                .compose(response -> {
                    answered[0] = true;
                    // Proven from the answer on: the connection goes back to the pool at the end of
                    // this response, before the end callback below runs.
                    proven.add(response.request().connection());
                    return response.end().map(ignored -> response.statusCode());
                })
                .onComplete(answer -> {
                    if (answer.failed() && reused[0] && !answered[0] && client == pooled && !done.get()) {
                        post(job, target, at, started, result, done, sent, timer, fresh);
                        return;
                    }
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

    /**
     * The targets of URLs resolved and allowed within the last second, by URL text. A burst to one partner
     * resolved and checked its URL on a DNS thread for every attempt, two thread hand-offs each (the JDK
     * answers a repeated lookup from its own cache, 30 s by default, so nothing fresher was learnt); now
     * once a second per URL. The address used is still the one that was checked; a refusal is never kept
     * (every attempt of a refused URL looks again). Bounded: cleared when it holds {@link #MAX} URLs.
     */
    static final class Targets {

        static final long TTL_NANOS = 1_000_000_000L;
        /** From this age on, a URL in use is checked again in the background ({@link Sender#refresh}). */
        static final long REFRESH_NANOS = TTL_NANOS / 2;
        static final int MAX = 10_000;

        private record Entry(WebhookUrls.Target target, long at) {
        }

        private final ConcurrentHashMap<String, Entry> byUrl = new ConcurrentHashMap<>();
        /** URLs being checked again now: one refresh per URL at a time. */
        private final Set<String> refreshing = ConcurrentHashMap.newKeySet();

        WebhookUrls.Target fresh(String url, long now) {
            Entry entry = byUrl.get(url);
            return entry != null && now - entry.at() < TTL_NANOS ? entry.target() : null;
        }

        /**
         * True once for a fresh entry half its life old (the caller then checks the URL again and calls
         * {@link #refreshed}); false while that refresh runs.
         */
        boolean refreshDue(String url, long now) {
            Entry entry = byUrl.get(url);
            return entry != null && now - entry.at() >= REFRESH_NANOS && now - entry.at() < TTL_NANOS
                    && refreshing.add(url);
        }

        void refreshed(String url) {
            refreshing.remove(url);
        }

        /** A URL refused (or failing) on a refresh: its next attempt looks it up again. */
        void forget(String url) {
            byUrl.remove(url);
        }

        void put(String url, WebhookUrls.Target target, long now) {
            if (byUrl.size() >= MAX) {
                byUrl.clear();
            }
            byUrl.put(url, new Entry(target, now));
        }
    }

    @PreDestroy
    void close() {
        dns.shutdownNow();
        pooled.close();
        fresh.close();
    }
}

package com.telemed.testkit.http;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real HTTP server on loopback standing in for another platform service in a service's tests:
 * the base every fake neighbour extends, so that what all of them do is written once. It records
 * every call exactly as received; refuses a call without a valid service proof with {@code 401}
 * (kept apart, in {@link #unproven()}), as the real services do; fails calls on demand
 * ({@link Failure}: for the next calls, or all of them); and holds calls unanswered until the test
 * releases them ({@link #hold}), the way a slow neighbour keeps its caller waiting.
 *
 * <p>A subclass, a CDI bean of the service's tests, is given the URL where the service under test
 * looks for its neighbour and the check of a service proof, and answers the calls
 * ({@link #answerNormally}) from what its tests scripted. The server starts with the application
 * and stops with it (the observers below, which the subclass inherits).
 */
public abstract class FakeNeighbour {

    /** A call as received: method, path, decoded query, {@code Content-Type} and body. */
    public record Call(String method, String path, Map<String, String> query, String contentType, String body) {
        public JsonObject json() {
            return new JsonObject(body);
        }
    }

    /** How a call fails instead of being answered: 404 route missing, 500, 503, or slower than a read timeout. */
    public enum Failure { NOT_SERVED, ERROR_500, UNAVAILABLE_503, SLOW }

    /** {@link Failure#SLOW}: longer than the read timeout the services' tests set (500 ms). */
    public static final long SLOW_MS = 1_500;

    /** The read timeout of {@link #testPolicy}. */
    public static final long READ_TIMEOUT_MS = 500;

    /**
     * The configuration a service's test resource gives its application: each URL property set to
     * {@code url} (where the fake serves), and the platform's remote policy made quick and harmless
     * for tests: a {@value #READ_TIMEOUT_MS} ms read timeout, two attempts {@code 50 ms} apart, and a
     * circuit breaker that never opens (failure tests would close the way for the tests after them;
     * platform-commons' RemoteServiceTest tests it). Mutable: a resource adds its own keys.
     */
    public static Map<String, String> testPolicy(String url, String... urlProperties) {
        Map<String, String> config = new LinkedHashMap<>();
        for (String property : urlProperties) {
            config.put(property, url);
        }
        config.put("platform.remote.read-timeout", READ_TIMEOUT_MS + "ms");
        config.put("platform.remote.attempts", "2");
        config.put("platform.remote.retry-backoff", "50ms");
        config.put("platform.remote.circuit-breaker.request-volume", "1000000");
        return config;
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Call> unproven = new CopyOnWriteArrayList<>();
    /** Guarded by {@code this}, as everything below. */
    private final Deque<Failure> next = new ArrayDeque<>();
    private Failure always;
    private Predicate<Call> holding = call -> false;
    private final List<Held> held = new ArrayList<>();
    private final int port;
    private final Predicate<HttpServerRequest> proven;
    private Vertx vertx;

    private record Held(Call call, Runnable answer) {
    }

    /**
     * Serves, once started, on the loopback port of {@code url} (where the service under test looks
     * for this neighbour); a call {@code proven} refuses is answered 401.
     */
    protected FakeNeighbour(String url, Predicate<HttpServerRequest> proven) {
        this.port = URI.create(url).getPort();
        this.proven = proven;
    }

    /** For the CDI client proxy of a subclass only: serves nothing. */
    protected FakeNeighbour() {
        this.port = 0;
        this.proven = request -> false;
    }

    void started(@Observes StartupEvent started) throws Exception {
        start();
    }

    void stopping(@Observes ShutdownEvent stopping) {
        stop();
    }

    /** Serves on {@code 127.0.0.1:port} until {@link #stop()}. */
    public void start() throws Exception {
        vertx = Vertx.vertx();
        vertx.createHttpServer().requestHandler(this::handle)
                .listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }

    /** Answers a proven call that neither fails nor is held. */
    protected abstract void answerNormally(HttpServerRequest request, Call call);

    /**
     * How this call fails, or {@code null} to answer it: the next scripted failure, else the
     * standing one. A subclass may choose by the call (which of the services it stands for).
     */
    protected synchronized Failure failureFor(Call call) {
        Failure failure = next.poll();
        return failure != null ? failure : always;
    }

    /** Forgets calls and failures, and answers every held call. Subclasses forget their scripts too. */
    public void reset() {
        release();
        synchronized (this) {
            next.clear();
            always = null;
        }
        calls.clear();
        unproven.clear();
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public List<Call> calls(String method, String path) {
        return calls.stream().filter(call -> call.method().equals(method) && call.path().equals(path)).toList();
    }

    /** Calls refused for want of a valid service proof. */
    public List<Call> unproven() {
        return List.copyOf(unproven);
    }

    public void clearCalls() {
        calls.clear();
    }

    /** The next calls fail like this, in order, then answers are normal again. */
    public synchronized void failNext(Failure... failures) {
        next.addAll(List.of(failures));
    }

    /** Every call fails like this until {@link #reset()}. */
    public synchronized void failAlways(Failure failure) {
        always = failure;
    }

    /** From now on, calls that match wait unanswered until released (replaces the previous choice). */
    public synchronized void hold(Predicate<Call> which) {
        holding = which;
    }

    /** The calls waiting for an answer now. */
    public synchronized List<Call> held() {
        return held.stream().map(Held::call).toList();
    }

    /** Stops holding and answers every held call, as it would have been answered. */
    public void release() {
        List<Held> answering;
        synchronized (this) {
            holding = call -> false;
            answering = List.copyOf(held);
            held.clear();
        }
        answering.forEach(each -> each.answer().run());
    }

    /** Answers the held calls that match (calls still arriving are held as before). */
    public void release(Predicate<Call> which) {
        List<Held> answering;
        synchronized (this) {
            answering = held.stream().filter(each -> which.test(each.call())).toList();
            held.removeAll(answering);
        }
        answering.forEach(each -> each.answer().run());
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(buffer -> {
            Map<String, String> query = new LinkedHashMap<>();
            request.params().forEach(entry -> query.put(entry.getKey(), entry.getValue()));
            Call call = new Call(request.method().name(), request.path(), query, request.getHeader("Content-Type"),
                    buffer.toString());
            if (!proven.test(request)) {
                unproven.add(call);
                answer(request, 401, new JsonObject().put("error", "Unauthorized"));
                return;
            }
            calls.add(call);
            synchronized (this) {
                if (holding.test(call)) {
                    held.add(new Held(call, () -> answerOrFail(request, call)));
                    return;
                }
            }
            answerOrFail(request, call);
        });
    }

    private void answerOrFail(HttpServerRequest request, Call call) {
        Failure failure = failureFor(call);
        if (failure == null) {
            answerNormally(request, call);
            return;
        }
        switch (failure) {
            case NOT_SERVED -> answer(request, 404, new JsonObject().put("error", "Not Found"));
            case ERROR_500 -> answer(request, 500, new JsonObject().put("error", "Internal Server Error"));
            case UNAVAILABLE_503 -> answer(request, 503, new JsonObject().put("error", "Service Unavailable"));
            case SLOW -> vertx.setTimer(SLOW_MS, timer -> answerNormally(request, call));
        }
    }

    /** Answers JSON, unless the caller gave up and closed the connection already. */
    protected static void answer(HttpServerRequest request, int status, JsonObject body) {
        if (request.response().closed()) {
            return;
        }
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
    }
}

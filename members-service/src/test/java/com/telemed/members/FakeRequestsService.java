package com.telemed.members;

import com.telemed.common.partner.PartnerContext;
import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A real HTTP server on loopback standing in for requests-service's internal endpoints, as the
 * contract in members-service's README defines them. It records every call exactly as received
 * and answers from what a test scripted: summaries and whether a member has requests (for the
 * member-deletion answer) per (partner, member), or a
 * failure (404 route missing, 500, 503, slower than the client's read timeout) for the next
 * calls or all of them. Unscripted members have no requests. Like the real service, it answers
 * {@code 401} to a call without a valid service proof (kept apart, in {@link #unproven()}).
 */
@ApplicationScoped
public class FakeRequestsService {

    public record Call(String method, String path, Map<String, String> query, String contentType, String body) {
        public JsonObject json() {
            return new JsonObject(body);
        }
    }

    public enum Failure { NOT_SERVED, ERROR_500, UNAVAILABLE_503, SLOW }

    private static final long SLOW_MS = 1_500;

    private final URI url;
    private final ServiceTrust trust;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Call> unproven = new CopyOnWriteArrayList<>();
    private final Map<String, JsonArray> summaries = new ConcurrentHashMap<>();
    private final Set<String> withRequests = ConcurrentHashMap.newKeySet();
    private final Deque<Failure> next = new ArrayDeque<>();
    private volatile Failure always;
    private Vertx vertx;
    private HttpServer server;

    public FakeRequestsService(@ConfigProperty(name = "members.requests-service.url") String url, ServiceTrust trust) {
        this.url = URI.create(url);
        this.trust = trust;
    }

    void start(@Observes StartupEvent started) throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(this::handle)
                .listen(url.getPort(), "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (vertx != null) {
            vertx.close();
        }
    }

    /** Forgets calls, scripts and failures. */
    public synchronized void reset() {
        calls.clear();
        unproven.clear();
        summaries.clear();
        withRequests.clear();
        next.clear();
        always = null;
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** Calls refused for want of a valid service proof, as requests-service refuses them. */
    public List<Call> unproven() {
        return List.copyOf(unproven);
    }

    public void clearCalls() {
        calls.clear();
    }

    public void summaries(String partnerId, String memberId, JsonArray entries) {
        summaries.put(partnerId + "|" + memberId, entries);
    }

    /** The member has requests: member deletions answer {@code hasRequests: true}. */
    public void hasRequests(String partnerId, String memberId) {
        withRequests.add(partnerId + "|" + memberId);
    }

    /** The next calls fail like this, in order, then answers are normal again. */
    public synchronized void failNext(Failure... failures) {
        next.addAll(List.of(failures));
    }

    /** Every call fails like this until {@link #reset()}. */
    public void failAlways(Failure failure) {
        always = failure;
    }

    private synchronized Failure failure() {
        Failure failure = next.poll();
        return failure != null ? failure : always;
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(buffer -> {
            Map<String, String> query = new java.util.LinkedHashMap<>();
            request.params().forEach(entry -> query.put(entry.getKey(), entry.getValue()));
            Call call = new Call(request.method().name(), request.path(), query, request.getHeader("Content-Type"),
                    buffer.toString());
            if (trust.verify(request.method().name(), request.uri(), request.getHeader(PartnerContext.HEADER),
                    request.getHeader(ServiceProof.TIMESTAMP_HEADER), request.getHeader(ServiceProof.PROOF_HEADER))
                    != ServiceProof.Verdict.PROVEN) {
                unproven.add(call);
                answer(request, 401, new JsonObject().put("error", "Unauthorized"));
                return;
            }
            calls.add(call);
            Failure failure = failure();
            if (failure == Failure.NOT_SERVED) {
                answer(request, 404, new JsonObject().put("error", "Not Found"));
            } else if (failure == Failure.ERROR_500) {
                answer(request, 500, new JsonObject().put("error", "Internal Server Error"));
            } else if (failure == Failure.UNAVAILABLE_503) {
                answer(request, 503, new JsonObject().put("error", "Service Unavailable"));
            } else if (failure == Failure.SLOW) {
                vertx.setTimer(SLOW_MS, timer -> answerNormally(request, call));
            } else {
                answerNormally(request, call);
            }
        });
    }

    private void answerNormally(HttpServerRequest request, Call call) {
        if (call.method().equals("POST") && call.path().equals("/internal/requests/summaries")) {
            JsonObject body = call.json();
            JsonObject byMember = new JsonObject();
            for (Object memberId : body.getJsonArray("memberIds")) {
                JsonArray entries = summaries.get(body.getString("partnerId") + "|" + memberId);
                if (entries != null) {
                    byMember.put((String) memberId, entries);
                }
            }
            answer(request, 200, new JsonObject().put("summaries", byMember));
        } else if (call.method().equals("POST") && call.path().equals("/internal/requests/member-deletions")) {
            JsonObject body = call.json();
            boolean has = withRequests.contains(body.getString("partnerId") + "|" + body.getString("memberId"));
            answer(request, 200, new JsonObject().put("hasRequests", has));
        } else {
            answer(request, 404, new JsonObject().put("error", "Not Found"));
        }
    }

    private static void answer(HttpServerRequest request, int status, JsonObject body) {
        if (request.response().closed()) {
            return;
        }
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
    }
}

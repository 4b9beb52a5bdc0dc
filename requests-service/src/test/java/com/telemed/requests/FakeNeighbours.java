package com.telemed.requests;

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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A real HTTP server on loopback standing in for members-service's internal API
 * (members-service/README.md, "Internal API") and catalogue-service's internal drug lookup.
 * Members live in memory; drugs are scripted per test, with the partners allowed to order them.
 * Every call is recorded as received; members or catalogue calls can be made to fail, or be held
 * unanswered until the test releases them ({@link #hold}), the way a slow neighbour keeps a
 * caller waiting. Like the real services, it answers {@code 401} to a call without a valid service
 * proof (kept apart, in {@link #unproven()}).
 */
@ApplicationScoped
public class FakeNeighbours {

    public record Call(String method, String path, Map<String, String> query, String body) {
        public JsonObject json() {
            return new JsonObject(body);
        }
    }

    public enum Failure { ERROR_500, SLOW }

    private static final long SLOW_MS = 1_500;

    private final URI url;
    private final ServiceTrust trust;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Call> unproven = new CopyOnWriteArrayList<>();
    /** Members in creation order (newest last). */
    private final List<JsonObject> members = new CopyOnWriteArrayList<>();
    private final Map<String, JsonObject> drugs = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> orderableBy = new ConcurrentHashMap<>();
    private volatile Failure membersFailure;
    private volatile Failure catalogueFailure;
    private volatile JsonArray memberIssues;
    /** Calls that match are held until released; guarded by {@code this}, as {@link #held}. */
    private Predicate<Call> holding = call -> false;
    private final List<Held> held = new ArrayList<>();
    private Vertx vertx;
    private HttpServer server;

    public FakeNeighbours(@ConfigProperty(name = "requests.remote.members-url") String url, ServiceTrust trust) {
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

    private record Held(Call call, Runnable answer) {
    }

    /** Forgets calls, failures and scripts (members and drugs stay: ids are unique per test); answers every held call. */
    public void reset() {
        release();
        calls.clear();
        unproven.clear();
        membersFailure = null;
        catalogueFailure = null;
        memberIssues = null;
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** Calls refused for want of a valid service proof, as members-service and catalogue-service refuse them. */
    public List<Call> unproven() {
        return List.copyOf(unproven);
    }

    public List<Call> calls(String method, String path) {
        return calls.stream().filter(call -> call.method().equals(method) && call.path().equals(path)).toList();
    }

    public List<Call> findOrCreateCalls() {
        return calls("POST", "/internal/members/find-or-create");
    }

    public void clearCalls() {
        calls.clear();
    }

    public void failMembers(Failure failure) {
        membersFailure = failure;
    }

    public void failCatalogue(Failure failure) {
        catalogueFailure = failure;
    }

    /** From now on, calls that match wait unanswered until released (replaces the previous choice). */
    public synchronized void hold(Predicate<Call> which) {
        holding = which;
    }

    /** Calls to members-service's internal API. */
    public static boolean toMembers(Call call) {
        return call.path().startsWith("/internal/members");
    }

    /** Calls to catalogue-service's drug lookup. */
    public static boolean toCatalogue(Call call) {
        return call.path().startsWith("/internal/drugs/");
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

    /** members-service deleted the member: lookups answer 404 from now on. */
    public void deleteMember(String id) {
        members.removeIf(member -> member.getString("id").equals(id));
    }

    /** find-or-create answers 400 with these issues until {@link #reset()}. */
    public void rejectMembers(JsonArray issues) {
        memberIssues = issues;
    }

    /** A member of the partner, stored as members-service would; returns its id. */
    public String seedMember(String partnerId, String firstName, String lastName, String email) {
        JsonObject inline = new JsonObject().put("firstName", firstName).put("lastName", lastName).put("email", email)
                .put("dateOfBirth", "1990-04-12").put("state", "CA")
                .put("address", new JsonObject().put("street1", "1 Main St").put("city", "Sacramento").put("state", "CA")
                        .put("zipCode", "95814"));
        return create(partnerId, inline).getString("id");
    }

    public JsonObject member(String id) {
        return members.stream().filter(member -> member.getString("id").equals(id)).findFirst().orElse(null);
    }

    public List<JsonObject> membersOf(String partnerId) {
        return members.stream().filter(member -> member.getString("partnerId").equals(partnerId)).toList();
    }

    /**
     * A drug record as catalogue-service's lookup answers it: dosages are the labels given, one
     * active SKU per dosage ({@code sku_<drugId>_<index>}); orderable by the given partners only.
     */
    public JsonObject drug(String drugId, String name, List<String> dosages, String... orderableByPartners) {
        JsonArray skus = new JsonArray();
        for (int index = 0; index < dosages.size(); index++) {
            skus.add(new JsonObject().put("id", skuId(drugId, index)).put("label", dosages.get(index)).put("active", true));
        }
        JsonObject drug = new JsonObject().put("id", drugId).put("name", name).put("description", name + " description")
                .put("defaultAdCopy", null).put("dosages", new JsonArray(dosages)).put("skus", skus)
                .put("classification", "Rx");
        drugs.put(drugId, drug);
        orderableBy.put(drugId, Set.of(orderableByPartners));
        return drug;
    }

    public static String skuId(String drugId, int index) {
        return "sku_" + drugId + "_" + index;
    }

    private synchronized JsonObject create(String partnerId, JsonObject inline) {
        String now = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        JsonObject member = new JsonObject().put("id", UUID.randomUUID().toString()).put("partnerId", partnerId);
        member.put("firstName", inline.getString("firstName")).put("lastName", inline.getString("lastName"))
                .put("email", inline.getString("email")).put("phone", inline.getString("phone"))
                .put("dateOfBirth", inline.getString("dateOfBirth")).put("state", inline.getString("state"))
                .put("status", "active").put("gender", inline.getString("gender"))
                .put("address", address(inline.getJsonObject("address")))
                .put("shippingAddress", address(inline.getJsonObject("shippingAddress")))
                .put("createdAt", now).put("updatedAt", now);
        members.add(member);
        return member;
    }

    private static JsonObject address(JsonObject address) {
        if (address == null) {
            return null;
        }
        return new JsonObject().put("street1", address.getString("street1")).put("street2", address.getString("street2"))
                .put("city", address.getString("city")).put("state", address.getString("state"))
                .put("zipCode", address.getString("zipCode"));
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(buffer -> {
            Map<String, String> query = new java.util.LinkedHashMap<>();
            request.params().forEach(entry -> query.put(entry.getKey(), entry.getValue()));
            Call call = new Call(request.method().name(), request.path(), query, buffer.toString());
            if (trust.verify(request.method().name(), request.uri(), request.getHeader(PartnerContext.HEADER),
                    request.getHeader(ServiceProof.TIMESTAMP_HEADER), request.getHeader(ServiceProof.PROOF_HEADER))
                    != ServiceProof.Verdict.PROVEN) {
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
        Failure failure = toMembers(call) ? membersFailure : catalogueFailure;
        if (failure == Failure.ERROR_500) {
            answer(request, 500, new JsonObject().put("error", "Internal Server Error"));
        } else if (failure == Failure.SLOW) {
            vertx.setTimer(SLOW_MS, timer -> answerNormally(request, call));
        } else {
            answerNormally(request, call);
        }
    }

    private void answerNormally(HttpServerRequest request, Call call) {
        String path = call.path();
        if (call.method().equals("POST") && path.equals("/internal/members/find-or-create")) {
            findOrCreate(request, call.json());
        } else if (call.method().equals("POST") && path.equals("/internal/members/batch")) {
            JsonObject body = call.json();
            JsonArray found = new JsonArray();
            Set<String> seen = new java.util.HashSet<>();
            for (Object id : body.getJsonArray("memberIds")) {
                JsonObject member = member((String) id);
                if (member != null && member.getString("partnerId").equals(body.getString("partnerId")) && seen.add((String) id)) {
                    found.add(member);
                }
            }
            answer(request, 200, new JsonObject().put("members", found));
        } else if (call.method().equals("GET") && path.startsWith("/internal/members/")) {
            JsonObject member = member(path.substring("/internal/members/".length()));
            if (member == null || !member.getString("partnerId").equals(call.query().get("partnerId"))) {
                answer(request, 404, new JsonObject().put("error", "Member not found"));
            } else {
                answer(request, 200, new JsonObject().put("member", member));
            }
        } else if (call.method().equals("GET") && path.startsWith("/internal/drugs/")) {
            String drugId = path.substring("/internal/drugs/".length());
            JsonObject drug = drugs.get(drugId);
            if (drug == null) {
                answer(request, 404, new JsonObject().put("error", "Drug not found"));
            } else {
                boolean orderable = orderableBy.get(drugId).contains(call.query().get("partnerId"));
                answer(request, 200, new JsonObject().put("drug", drug).put("orderable", orderable)
                        .put("pharmacy", new JsonObject().put("id", "pharmacy-" + drugId).put("method", "email")));
            }
        } else {
            answer(request, 404, new JsonObject().put("error", "Not Found"));
        }
    }

    private synchronized void findOrCreate(HttpServerRequest request, JsonObject body) {
        JsonArray issues = memberIssues;
        if (issues != null) {
            request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("error", issues).encode());
            return;
        }
        String partnerId = body.getString("partnerId");
        JsonObject inline = body.getJsonObject("member");
        JsonObject existing = null;
        for (JsonObject member : membersOf(partnerId)) {
            if (member.getString("email").equalsIgnoreCase(inline.getString("email"))) {
                existing = member;
            }
        }
        if (existing != null) {
            for (String field : List.of("firstName", "lastName", "email", "phone", "dateOfBirth", "state", "gender")) {
                if (inline.containsKey(field)) {
                    existing.put(field, inline.getValue(field));
                }
            }
            if (inline.containsKey("address")) {
                existing.put("address", address(inline.getJsonObject("address")));
            }
            answer(request, 200, new JsonObject().put("member", existing).put("created", false));
        } else {
            answer(request, 201, new JsonObject().put("member", create(partnerId, inline)).put("created", true));
        }
    }

    private static void answer(HttpServerRequest request, int status, JsonObject body) {
        if (request.response().closed()) {
            return;
        }
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
    }
}

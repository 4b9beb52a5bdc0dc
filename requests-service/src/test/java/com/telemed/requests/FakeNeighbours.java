package com.telemed.requests;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.FakeNeighbour;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * members-service's internal API (members-service/README.md, "Internal API") and
 * catalogue-service's internal drug lookup, on one loopback server ({@link FakeNeighbour}: calls
 * recorded, proofs checked, failures and held calls). Members live in memory; drugs are scripted
 * per test, with the partners allowed to order them. Members or catalogue calls can be made to
 * fail on their own ({@link #failMembers}, {@link #failCatalogue}).
 */
@ApplicationScoped
public class FakeNeighbours extends FakeNeighbour {

    /** Members in creation order (newest last). */
    private final List<JsonObject> members = new CopyOnWriteArrayList<>();
    private final Map<String, JsonObject> drugs = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> orderableBy = new ConcurrentHashMap<>();
    private volatile Failure membersFailure;
    private volatile Failure catalogueFailure;
    private volatile JsonArray memberIssues;
    private final Map<String, String> pharmacyMethods = new ConcurrentHashMap<>();
    private final Set<String> unreadFromPatient = ConcurrentHashMap.newKeySet();
    private volatile Failure messagingFailure;
    private volatile String defaultPharmacyMethod = "email";
    private volatile JsonObject catalogueSnapshot;

    public FakeNeighbours(@ConfigProperty(name = "platform.service-urls.members-service") String url, ServiceTrust trust) {
        super(url, request -> trust.verify(request) == ServiceProof.Verdict.PROVEN);
    }

    /** Forgets calls, failures and scripts (members and drugs stay: ids are unique per test); answers every held call. */
    @Override
    public void reset() {
        super.reset();
        membersFailure = null;
        catalogueFailure = null;
        messagingFailure = null;
        memberIssues = null;
        defaultPharmacyMethod = "email";
    }

    public List<Call> findOrCreateCalls() {
        return calls("POST", "/internal/members/find-or-create");
    }

    public void failMembers(Failure failure) {
        membersFailure = failure;
    }

    public void failCatalogue(Failure failure) {
        catalogueFailure = failure;
    }

    public void failMessaging(Failure failure) {
        messagingFailure = failure;
    }

    @Override
    protected Failure failureFor(Call call) {
        Failure failure = toMembers(call) ? membersFailure : toMessaging(call) ? messagingFailure : catalogueFailure;
        return failure != null ? failure : super.failureFor(call);
    }

    /** Calls to members-service's internal API. */
    public static boolean toMembers(Call call) {
        return call.path().startsWith("/internal/members");
    }

    /** Calls to messaging-service's internal endpoint. */
    public static boolean toMessaging(Call call) {
        return call.path().startsWith("/internal/messages/");
    }

    /** The member's status as members-service stores it ({@code active}, {@code paused}, {@code cancelled}). */
    public void memberStatus(String id, String status) {
        member(id).put("status", status);
    }

    /** Whether messaging-service says the member has a patient message no prescriber has read (whatever the {@code since}). */
    public void unreadFromPatient(String memberId, boolean unread) {
        if (unread) {
            unreadFromPatient.add(memberId);
        } else {
            unreadFromPatient.remove(memberId);
        }
    }

    /** The drug's {@code pharmacy.method} as the catalogue answers it ({@code email} unless set). */
    public void pharmacyMethod(String drugId, String method) {
        pharmacyMethods.put(drugId, method);
    }

    /** The {@code pharmacy.method} of drugs without one of their own, until {@link #reset()}. */
    public void defaultPharmacyMethod(String method) {
        defaultPharmacyMethod = method;
    }

    /**
     * What {@code GET /internal/catalogue/snapshot} answers from now on (null: 404, as before any test sets
     * it). Not reset: once requests-service's copy applied a snapshot it stays synced for the test run.
     */
    public void catalogueSnapshot(JsonObject snapshot) {
        catalogueSnapshot = snapshot;
    }

    /** Calls to catalogue-service's drug lookup. */
    public static boolean toCatalogue(Call call) {
        return call.path().startsWith("/internal/drugs/");
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

    /**
     * members-service's change of these fields (a {@code PUT}): the member's version moves on; returns it.
     * Recording the change's fence (as members-service does before it commits) is the test's part.
     */
    public synchronized long changeMember(String id, JsonObject fields) {
        JsonObject member = member(id);
        fields.forEach(field -> member.put(field.getKey(), field.getValue()));
        long next = member.getLong("version") + 1;
        member.put("version", next);
        return next;
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
                .put("createdAt", now).put("updatedAt", now).put("version", 1);
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

    @Override
    protected void answerNormally(HttpServerRequest request, Call call) {
        String path = call.path();
        if (call.method().equals("POST") && path.equals("/internal/members/find-or-create")) {
            findOrCreate(request, call.json());
        } else if (call.method().equals("POST") && path.equals("/internal/members/batch")) {
            JsonObject body = call.json();
            JsonArray found = new JsonArray();
            Set<String> seen = new HashSet<>();
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
                        .put("pharmacy", new JsonObject().put("id", "pharmacy-" + drugId)
                                .put("method", pharmacyMethods.getOrDefault(drugId, defaultPharmacyMethod))));
            }
        } else if (call.method().equals("GET") && path.equals("/internal/catalogue/snapshot")) {
            JsonObject snapshot = catalogueSnapshot;
            if (snapshot == null) {
                answer(request, 404, new JsonObject().put("error", "Not Found"));
            } else {
                answer(request, 200, snapshot);
            }
        } else if (call.method().equals("GET") && path.equals("/internal/messages/unread-from-patient")) {
            if (call.query().get("since") == null || call.query().get("partnerId") == null) {
                answer(request, 400, new JsonObject().put("error", "since and partnerId are required"));
            } else {
                answer(request, 200, new JsonObject().put("unread", unreadFromPatient.contains(call.query().get("memberId"))));
            }
        } else if (call.method().equals("POST") && path.equals("/v1/messages/conversations")) {
            // messaging-service's find-or-create of a member's conversation with a prescriber: one id per pair.
            JsonObject body = call.json();
            String id = UUID.nameUUIDFromBytes((body.getString("memberId") + "/" + body.getString("prescriberId")).getBytes(StandardCharsets.UTF_8))
                    .toString();
            answer(request, 201, new JsonObject().put("conversation", new JsonObject().put("id", id)
                    .put("memberId", body.getString("memberId")).put("prescriberId", body.getString("prescriberId"))));
        } else if (call.method().equals("POST") && path.startsWith("/ops/v1/conversations/") && path.endsWith("/prescriber-messages")) {
            answer(request, 201, new JsonObject().put("message", new JsonObject().put("id", UUID.randomUUID().toString())
                    .put("text", call.json().getString("text"))));
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
            // As members-service: an existing member changes (its version + 1) only once that change was fenced.
            long next = existing.getLong("version") + 1;
            JsonObject fenced = body.getJsonObject("fenced");
            if (fenced == null || !fenced.getString("memberId").equals(existing.getString("id")) || fenced.getLong("version") != next) {
                answer(request, 200, new JsonObject().putNull("member")
                        .put("fence", new JsonObject().put("memberId", existing.getString("id")).put("version", next)));
                return;
            }
            for (String field : List.of("firstName", "lastName", "email", "phone", "dateOfBirth", "state", "gender")) {
                if (inline.containsKey(field)) {
                    existing.put(field, inline.getValue(field));
                }
            }
            if (inline.containsKey("address")) {
                existing.put("address", address(inline.getJsonObject("address")));
            }
            existing.put("version", next);
            answer(request, 200, new JsonObject().put("member", existing).put("created", false));
        } else {
            answer(request, 201, new JsonObject().put("member", create(partnerId, inline)).put("created", true));
        }
    }
}

package com.telemed.billing.rebuild;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.FakeNeighbour;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * members-service's billing export and requests-service's first approvals, on one loopback server,
 * answering as those services do (their READMEs, "Internal API"): a partner's entries by member id
 * ascending after {@code after}, {@value #PAGE} per page here (fewer than billing asks for, which
 * an owner may answer), {@code next} the last id of a full page.
 */
@ApplicationScoped
public class OwnersNeighbour extends FakeNeighbour {

    static final int PAGE = 2;

    /** Per partner, by member id: the export entry and the first approval (null: none). */
    private final Map<String, TreeMap<String, JsonObject>> members = new ConcurrentHashMap<>();
    private final Map<String, TreeMap<String, String>> approvals = new ConcurrentHashMap<>();

    public OwnersNeighbour(@ConfigProperty(name = "platform.service-urls.members-service") String url, ServiceTrust trust) {
        super(url, request -> trust.verify(request) == ServiceProof.Verdict.PROVEN);
    }

    /** A member as the export lists it; {@code statusChanges} as {@code {id, status, at}}. */
    public void member(String partnerId, String memberId, String firstName, String lastName, String email, String createdAt,
                       String updatedAt, List<JsonObject> statusChanges) {
        members.computeIfAbsent(partnerId, p -> new TreeMap<>()).put(memberId, new JsonObject().put("memberId", memberId)
                .put("firstName", firstName).put("lastName", lastName).put("email", email).put("createdAt", createdAt)
                .put("updatedAt", updatedAt).put("statusChanges", new JsonArray(statusChanges)));
    }

    public void firstApproval(String partnerId, String memberId, String at) {
        approvals.computeIfAbsent(partnerId, p -> new TreeMap<>()).put(memberId, at);
    }

    @Override
    protected void answerNormally(HttpServerRequest request, Call call) {
        String partnerId = call.query().get("partnerId");
        String after = call.query().get("after");
        if (call.method().equals("GET") && call.path().equals("/internal/members/billing-export")) {
            TreeMap<String, JsonObject> all = members.getOrDefault(partnerId, new TreeMap<>());
            answer(request, 200, page(after == null ? all : all.tailMap(after, false)));
        } else if (call.method().equals("GET") && call.path().equals("/internal/requests/first-approvals")) {
            TreeMap<String, String> all = approvals.getOrDefault(partnerId, new TreeMap<>());
            TreeMap<String, JsonObject> entries = new TreeMap<>();
            (after == null ? all : all.tailMap(after, false)).forEach((id, at) ->
                    entries.put(id, new JsonObject().put("memberId", id).put("firstApprovedAt", at)));
            answer(request, 200, page(entries));
        } else {
            answer(request, 404, new JsonObject().put("error", "Not found"));
        }
    }

    private static JsonObject page(Map<String, JsonObject> from) {
        JsonArray page = new JsonArray();
        String last = null;
        for (Map.Entry<String, JsonObject> entry : from.entrySet()) {
            if (page.size() == PAGE) {
                break;
            }
            page.add(entry.getValue());
            last = entry.getKey();
        }
        return new JsonObject().put("members", page).put("next", page.size() == PAGE ? last : null);
    }
}

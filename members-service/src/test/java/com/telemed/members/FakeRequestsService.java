package com.telemed.members;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.FakeNeighbour;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * requests-service's internal endpoints, as the contract in members-service's README defines
 * them, on a loopback server ({@link FakeNeighbour}: calls recorded as received, proofs checked,
 * failures on demand). It answers from what a test scripted: summaries and whether a member has
 * requests (for the member-deletion answer) per (partner, member). Unscripted members have no
 * requests.
 */
@ApplicationScoped
public class FakeRequestsService extends FakeNeighbour {

    private final Map<String, JsonArray> summaries = new ConcurrentHashMap<>();
    private final Set<String> withRequests = ConcurrentHashMap.newKeySet();

    public FakeRequestsService(@ConfigProperty(name = "members.requests-service.url") String url, ServiceTrust trust) {
        super(url, request -> trust.verify(request) == ServiceProof.Verdict.PROVEN);
    }

    /** Forgets calls, scripts and failures. */
    @Override
    public void reset() {
        super.reset();
        summaries.clear();
        withRequests.clear();
    }

    public void summaries(String partnerId, String memberId, JsonArray entries) {
        summaries.put(partnerId + "|" + memberId, entries);
    }

    /** The member has requests: member deletions answer {@code hasRequests: true}. */
    public void hasRequests(String partnerId, String memberId) {
        withRequests.add(partnerId + "|" + memberId);
    }

    @Override
    protected void answerNormally(HttpServerRequest request, Call call) {
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
}

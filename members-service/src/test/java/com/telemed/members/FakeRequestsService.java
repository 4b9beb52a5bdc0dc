package com.telemed.members;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.FakeNeighbour;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * requests-service's internal endpoints, as the contract in members-service's README defines
 * them, on a loopback server ({@link FakeNeighbour}: calls recorded as received, proofs checked,
 * failures on demand). It answers from what a test scripted: summaries and whether a member has
 * requests (for the member-deletion answer) per (partner, member). Unscripted members have no
 * requests. Member fences are answered {@code 204} and kept in the order taken ({@link #fences()}),
 * each with what a test's probe ({@link #probeFences}) read at the moment it arrived; they alone
 * can be made to fail ({@link #failFences}), so reads keep working meanwhile.
 */
@ApplicationScoped
public class FakeRequestsService extends FakeNeighbour {

    public static final String MEMBER_FENCES = "/internal/requests/member-fences";

    /**
     * A member fence taken (answered 204): the body's fields, and what the probe of
     * {@link #probeFences} returned for (partner, member) when it arrived, before it was answered
     * (null without a probe).
     */
    public record Fence(String partnerId, String memberId, long version, Object probed) {
    }

    private final Map<String, JsonArray> summaries = new ConcurrentHashMap<>();
    private final Set<String> withRequests = ConcurrentHashMap.newKeySet();
    private final List<Fence> fences = new CopyOnWriteArrayList<>();
    /** Each fence's changing probe ({@link #overtakeFences}), by partner, member and version. */
    private final Map<String, Future<Object>> probes = new ConcurrentHashMap<>();
    private volatile BiFunction<String, String, Object> fenceProbe;
    private volatile boolean changingProbe;
    private volatile Failure fenceFailure;

    public FakeRequestsService(@ConfigProperty(name = "platform.service-urls.requests-service") String url, ServiceTrust trust) {
        super(url, request -> trust.verify(request) == ServiceProof.Verdict.PROVEN);
    }

    /** Forgets calls, scripts and failures. */
    @Override
    public void reset() {
        super.reset();
        summaries.clear();
        withRequests.clear();
        fences.clear();
        probes.clear();
        fenceProbe = null;
        changingProbe = false;
        fenceFailure = null;
    }

    /** The member fences taken, in the order they were answered. */
    public List<Fence> fences() {
        return List.copyOf(fences);
    }

    /**
     * From now on every fence, when it arrives and before it is answered, runs {@code probe} with
     * its partner and member ids on a worker thread (it may call members-service) and keeps the
     * result with the fence: what was true while members-service waited for the answer.
     */
    public void probeFences(BiFunction<String, String, Object> probe) {
        changingProbe = false;
        fenceProbe = probe;
    }

    /**
     * As {@link #probeFences}, for a probe that changes the member (overtakes the call that takes
     * the fence): it runs once per fence, so a fence sent again, because its first call timed out on
     * a loaded machine and the remote-call policy retried it, is not overtaken a second time.
     */
    public void overtakeFences(BiFunction<String, String, Object> probe) {
        changingProbe = true;
        fenceProbe = probe;
    }

    /** Every member fence fails like this (other calls are answered) until {@link #reset()}. */
    public void failFences(Failure failure) {
        fenceFailure = failure;
    }

    @Override
    protected Failure failureFor(Call call) {
        Failure failure = fenceFailure;
        if (failure != null && isFence(call)) {
            return failure;
        }
        return super.failureFor(call);
    }

    private static boolean isFence(Call call) {
        return call.method().equals("POST") && call.path().equals(MEMBER_FENCES);
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
        } else if (isFence(call)) {
            JsonObject body = call.json();
            String partnerId = body.getString("partnerId");
            String memberId = body.getString("memberId");
            long version = body.getLong("version");
            BiFunction<String, String, Object> probe = fenceProbe;
            if (probe == null) {
                takeFence(request, new Fence(partnerId, memberId, version, null));
                return;
            }
            // Unordered: concurrent fences are probed at once, as they arrive.
            Context context = Vertx.currentContext();
            Future<Object> probing = changingProbe
                    ? probes.computeIfAbsent(partnerId + "|" + memberId + "|" + version,
                            key -> context.executeBlocking(() -> probe.apply(partnerId, memberId), false))
                    : context.executeBlocking(() -> probe.apply(partnerId, memberId), false);
            probing.onComplete(probed -> takeFence(request, new Fence(partnerId, memberId, version,
                            probed.succeeded() ? probed.result() : probed.cause())));
        } else {
            answer(request, 404, new JsonObject().put("error", "Not Found"));
        }
    }

    private void takeFence(HttpServerRequest request, Fence fence) {
        if (request.response().closed()) {
            return;
        }
        fences.add(fence);
        request.response().setStatusCode(204).end();
    }
}

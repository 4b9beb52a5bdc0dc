package com.telemed.messaging;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.FakeNeighbour;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The neighbours messaging-service calls, on one loopback server ({@link FakeNeighbour}: calls
 * recorded, proofs checked, failures and held calls): members-service's access check and
 * requests-service's member requests and prescriber lookup, answering as those services do.
 * Members, requests and prescribers live in memory; ids are unique per test, so nothing is reset
 * between tests but calls and failures.
 */
@ApplicationScoped
public class MessagingNeighbours extends FakeNeighbour {

    private static final Pattern ACCESS = Pattern.compile("/internal/members/([^/]+)/access");
    private static final Pattern PRESCRIBER = Pattern.compile("/internal/prescribers/([^/]+)");

    private record Member(String partnerId, String firstName, String lastName, String email) {
    }

    private record Prescriber(String name, String email) {
    }

    private final Map<String, Member> members = new ConcurrentHashMap<>();
    private final Map<String, Prescriber> prescribers = new ConcurrentHashMap<>();
    /** Per member, newest last. */
    private final Map<String, List<JsonObject>> requests = new ConcurrentHashMap<>();

    public MessagingNeighbours(@ConfigProperty(name = "platform.service-urls.members-service") String url, ServiceTrust trust) {
        super(url, request -> trust.verify(request) == ServiceProof.Verdict.PROVEN);
    }

    /** A member of the partner, as members-service stores it; returns its id. */
    public String member(String partnerId, String firstName, String lastName, String email) {
        String id = UUID.randomUUID().toString();
        members.put(id, new Member(partnerId, firstName, lastName, email));
        return id;
    }

    /** A prescriber, as requests-service stores it; returns its id. */
    public String prescriber(String name, String email) {
        String id = UUID.randomUUID().toString();
        prescribers.put(id, new Prescriber(name, email));
        return id;
    }

    /**
     * A request of the member, newer than the ones before it, with its stored status and the
     * prescriber it is assigned to (null: none yet).
     */
    public void request(String memberId, String status, String prescriberId) {
        List<JsonObject> list = requests.computeIfAbsent(memberId, id -> new CopyOnWriteArrayList<>());
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusMillis(list.size());
        list.add(new JsonObject().put("id", UUID.randomUUID().toString()).put("prescriberId", prescriberId)
                .put("status", status).put("createdAt", createdAt.toString()));
    }

    @Override
    protected void answerNormally(HttpServerRequest request, Call call) {
        Matcher access = ACCESS.matcher(call.path());
        Matcher prescriber = PRESCRIBER.matcher(call.path());
        if (call.method().equals("GET") && access.matches()) {
            Member member = members.get(access.group(1));
            if (member == null) {
                answer(request, 404, new JsonObject().put("error", "Member not found"));
            } else if (!member.partnerId().equals(call.query().get("partnerId"))) {
                answer(request, 403, new JsonObject().put("error", "Member does not belong to this partner"));
            } else {
                answer(request, 200, new JsonObject().put("member", new JsonObject().put("id", access.group(1))
                        .put("partnerId", member.partnerId()).put("firstName", member.firstName())
                        .put("lastName", member.lastName()).put("email", member.email()).put("status", "active")));
            }
        } else if (call.method().equals("GET") && call.path().equals("/internal/requests/by-member")) {
            String memberId = call.query().get("memberId");
            Member member = members.get(memberId);
            JsonArray newestFirst = new JsonArray();
            if (member != null && member.partnerId().equals(call.query().get("partnerId"))) {
                List<JsonObject> list = requests.getOrDefault(memberId, List.of());
                for (int index = list.size() - 1; index >= 0; index--) {
                    newestFirst.add(list.get(index));
                }
            }
            answer(request, 200, new JsonObject().put("requests", newestFirst));
        } else if (call.method().equals("GET") && prescriber.matches()) {
            Prescriber found = prescribers.get(prescriber.group(1));
            if (found == null) {
                answer(request, 404, new JsonObject().put("error", "Prescriber not found"));
            } else {
                answer(request, 200, new JsonObject().put("prescriber", new JsonObject().put("id", prescriber.group(1))
                        .put("name", found.name()).put("email", found.email()).put("createdAt", "2026-11-01T00:00:00.000Z")));
            }
        } else {
            answer(request, 404, new JsonObject().put("error", "Not Found"));
        }
    }
}

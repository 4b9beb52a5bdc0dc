package com.telemed.members.requests;

import com.telemed.common.error.ApiException;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import com.telemed.members.member.MemberRequests;
import com.telemed.members.member.RequestSummary;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The one way members-service talks to requests-service, and what each answer means here. The
 * timeouts, the retry of these idempotent calls (after a connection failure, a timeout or a
 * 502/503/504; never after another status) and the circuit breaker are the platform's one policy
 * ({@link RemoteCalls}); no 4xx of any of them is an answer. What a failure means:
 *
 * <ul>
 *   <li>Summaries, any failure (the endpoint never answers 404: unknown members simply have no
 *       summaries, so a 404 means a route is missing): 503 {@code Service Unavailable}. {@code requests} is a
 *       contract field of member reads; an empty list would tell the partner "this member has no
 *       requests", which they may act on (delete, resubmit). A failed read they can retry is the
 *       honest answer.</li>
 *   <li>Member deletion, any failure including 404: 503. A delete must never happen unless
 *       requests-service agreed to it, so the delete fails closed.</li>
 *   <li>Member fence, any failure including 404: 503. An update must never commit unless
 *       requests-service knows its copy of the member is stale below the new version (else a
 *       request created after the answered {@code PUT} could carry the old state), so the update
 *       fails closed, as the delete does.</li>
 * </ul>
 * Logs name the operation and the HTTP status or exception classes only: no partner, member or
 * request data.
 */
@ApplicationScoped
public class RequestsServiceClient implements MemberRequests {

    private static final Logger LOG = Logger.getLogger(RequestsServiceClient.class);

    private final RequestsApi api;
    private final RemoteService requests;

    public RequestsServiceClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(RequestsApi.class, urls.of("requests-service"));
        this.requests = calls.service("requests-service");
    }

    /** One call for all the members given (a page of a list is one call), at most {@code perMember} summaries each. */
    @Override
    public Map<UUID, List<RequestSummary>> forMembers(String partnerId, Collection<UUID> memberIds, int perMember) {
        if (memberIds.isEmpty()) {
            return Map.of();
        }
        List<String> ids = memberIds.stream().map(UUID::toString).distinct().toList();
        // Read inside the call: an unreadable answer is repeated, then 503, as the policy treats any other failure.
        SummariesAnswer answer = requests.call("summaries",
                () -> SummariesReader.read(api.summaries(new SummariesQuery(partnerId, ids, perMember))));
        if (answer == null || answer.summaries() == null) {
            throw unavailable("summaries", "answer without summaries");
        }
        // Only the members asked about, and only as many as asked: an answer about others, or
        // longer than the ask, is never shown past the bound.
        Map<UUID, List<RequestSummary>> byMember = new HashMap<>();
        for (String id : ids) {
            List<RequestSummary> summaries = answer.summaries().get(id);
            if (summaries != null) {
                byMember.put(UUID.fromString(id), List.copyOf(new ArrayList<>(summaries.subList(0, Math.min(perMember, summaries.size())))));
            }
        }
        return byMember;
    }

    @Override
    public boolean agreeToDelete(String partnerId, UUID memberId) {
        // Any failure: not agreed (requests may exist), so the delete fails closed. Repeating the
        // call is harmless: an agreed delete is agreed again, a refused one refused again.
        HasRequestsAnswer answer = requests.call("member-deletion",
                () -> api.memberDeletion(new MemberDeletionQuery(partnerId, memberId.toString())));
        if (answer == null || answer.hasRequests() == null) {
            throw unavailable("member-deletion", "answer without hasRequests");
        }
        return !answer.hasRequests();
    }

    @Override
    public void fence(String partnerId, UUID memberId, long version) {
        // Any failure is the 503 of the platform's policy (logged there by operation and status
        // only), so the update fails closed. Repeating the call is harmless: requests-service keeps
        // the highest fence.
        requests.call("member-fence", () -> {
            api.memberFence(new MemberFence(partnerId, memberId.toString(), version));
            return null;
        });
    }

    private static ApiException unavailable(String operation, String reason) {
        LOG.warnf("requests-service %s unavailable: %s", operation, reason);
        return new ApiException(503, "Service Unavailable");
    }
}

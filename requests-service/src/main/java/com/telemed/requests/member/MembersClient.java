package com.telemed.requests.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one way requests-service talks to members-service: owns the client, its timeouts, and
 * what each answer means here. Timeouts, retries, the circuit breaker and the 503s come from the
 * platform's one policy ({@link RemoteCalls}). Every call names the partner, and members-service
 * only ever matches that partner's members.
 */
@ApplicationScoped
public class MembersClient {

    /** An unknown, foreign or deleted member. */
    private static final Answers NOT_FOUND = Answers.of(404);
    /** The inline member's issues. */
    private static final Answers INVALID = Answers.of(400);

    private final MembersApi api;
    private final RemoteService members;

    public MembersClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(MembersApi.class, urls.of("members-service"));
        this.members = calls.service("members-service");
    }

    /** The partner's member, or empty for an unknown, foreign or malformed id. */
    public Optional<MemberRecord> find(String partnerId, String memberId) {
        if (Ids.uuid(memberId).isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(members.call("get", NOT_FOUND, () -> api.get(memberId, partnerId)).member());
        } catch (WebApplicationException notFound) {
            return Optional.empty();
        }
    }

    /**
     * The partner's member with this email, updated with the sent fields, or a new one; or, when that
     * would change an existing member whose change is not the one {@code fenced} names (null on a first
     * ask), no member and the fence to record before asking again ({@link MemberLookup#inline}). An
     * invalid inline member answers members-service's issues as they are (paths under {@code member}).
     * Safe to retry: a retry finds the member a failed attempt created.
     */
    public FoundOrFence findOrCreate(String partnerId, JsonNode inlineMember, MembersApi.Fence fenced) {
        MembersApi.MemberAnswer answer;
        try {
            answer = members.call("find-or-create", INVALID,
                    () -> api.findOrCreate(new MembersApi.FindOrCreate(partnerId, inlineMember, fenced)));
        } catch (WebApplicationException invalid) {
            throw new PassedThrough(400, invalid.getResponse().readEntity(JsonNode.class));
        }
        if (answer == null || (answer.member() == null) == (answer.fence() == null)
                || (answer.fence() != null && (Ids.uuid(answer.fence().memberId()).isEmpty() || answer.fence().version() < 1))) {
            throw new ApiException(503, "Service Unavailable");
        }
        return new FoundOrFence(answer.member(), answer.fence());
    }

    /** What find-or-create answered: exactly one of the two is set. */
    public record FoundOrFence(MemberRecord member, MembersApi.Fence fence) {
    }

    /** The partner's members among these ids, by id; unknown ones are absent. */
    public Map<UUID, MemberRecord> batch(String partnerId, Collection<UUID> memberIds) {
        if (memberIds.isEmpty()) {
            return Map.of();
        }
        List<String> ids = memberIds.stream().distinct().map(UUID::toString).toList();
        return members.call("batch", () -> api.batch(new MembersApi.Batch(partnerId, ids))).members().stream()
                .collect(Collectors.toMap(MemberRecord::id, Function.identity(), (first, second) -> first));
    }
}

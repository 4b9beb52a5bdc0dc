package com.telemed.requests.request;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.requests.member.MemberDeletions;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/**
 * What other services ask of requests (never routed by the gateway; every call names its
 * partner and sees only that partner's requests): summaries and member deletions for
 * members-service (contract in members-service/README.md), a member's requests for
 * messaging's prescriber resolution. None answers 404: an unknown member simply has no requests.
 */
@Path("/internal/requests")
@Produces(MediaType.APPLICATION_JSON)
public class InternalRequestResource {

    /** Partner ids are the gateway's UUIDs; every requests index leads with one. */
    static final int PARTNER_ID_MAX = 64;

    /**
     * The most summaries any ask gets per member, newest first: the default of an ask without
     * {@code limitPerMember}, and its maximum. 100 members x 100 summaries is the largest answer.
     */
    static final int MAX_PER_MEMBER = MemberRequests.MAX_PER_MEMBER;

    static final ObjectSchema SUMMARIES = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("memberIds", array(string()).max(100))
            .field("limitPerMember", number().integer().min(1).max(MAX_PER_MEMBER).optional());
    static final ObjectSchema MEMBER_QUERY = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("memberId", string());

    private final MemberRequests requests;
    private final MemberDeletions deletions;

    public InternalRequestResource(MemberRequests requests, MemberDeletions deletions) {
        this.requests = requests;
        this.deletions = deletions;
    }

    public record Summaries(Map<String, List<MemberRequests.Summary>> summaries) {
    }

    public record HasRequests(boolean hasRequests) {
    }

    public record ForMember(List<MemberRequests.Assignment> requests) {
    }

    /** The summaries asked for, bound after {@link #SUMMARIES}; {@code limitPerMember} null when absent. */
    public record SummariesInput(String partnerId, List<String> memberIds, Integer limitPerMember) {
    }

    /** A member deletion asked for, bound after {@link #MEMBER_QUERY}. */
    public record MemberDeletionInput(String partnerId, String memberId) {
    }

    @POST
    @Path("/summaries")
    @Consumes(MediaType.APPLICATION_JSON)
    public Summaries summaries(JsonNode body) {
        SummariesInput input = Binding.bind(SUMMARIES, body, SummariesInput.class);
        int perMember = input.limitPerMember() != null ? input.limitPerMember() : MAX_PER_MEMBER;
        return new Summaries(requests.summaries(input.partnerId(), input.memberIds(), perMember));
    }

    /**
     * members-service asks before deleting a member: {@code hasRequests: true} refuses the delete
     * (nothing recorded); {@code false} agrees to it, and no request is created for the member from
     * then on ({@link MemberDeletions}). Repeatable. A malformed id has no requests and is not recorded.
     */
    @POST
    @Path("/member-deletions")
    @Consumes(MediaType.APPLICATION_JSON)
    public HasRequests memberDeletion(JsonNode body) {
        MemberDeletionInput input = Binding.bind(MEMBER_QUERY, body, MemberDeletionInput.class);
        return new HasRequests(Ids.uuid(input.memberId())
                .map(memberId -> deletions.agree(input.partnerId(), memberId))
                .orElse(false));
    }

    /** A member's requests, newest first, with their prescriber and stored status (messaging's prescriber resolution). */
    @GET
    @Path("/by-member")
    public ForMember byMember(@QueryParam("partnerId") String partnerId, @QueryParam("memberId") String memberId) {
        memberQuery(partnerId, memberId);
        return new ForMember(requests.assignments(partnerId, memberId));
    }

    private static void memberQuery(String partnerId, String memberId) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (partnerId != null) {
            query.put("partnerId", partnerId);
        }
        if (memberId != null) {
            query.put("memberId", memberId);
        }
        MEMBER_QUERY.validate(query);
    }
}

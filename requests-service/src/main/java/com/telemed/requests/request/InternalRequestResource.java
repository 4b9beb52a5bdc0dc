package com.telemed.requests.request;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.requests.member.MemberCopies;
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
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What other services ask of requests (never routed by the gateway; every call names its
 * partner and sees only that partner's requests): summaries, member deletions and member fences for
 * members-service (contract in members-service/README.md), a member's requests for
 * messaging's prescriber resolution, members' first approvals for billing-service's rebuild.
 * None answers 404: an unknown member simply has no requests.
 */
@Path("/internal/requests")
@Produces(MediaType.APPLICATION_JSON)
public class InternalRequestResource {

    /** The canonical 8-4-4-4-12 form, as platform-commons' {@code Ids} parses it. */
    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

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
    static final ObjectSchema MEMBER_FENCE = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("memberId", string().regex(UUID_FORM, "Invalid uuid"))
            .field("version", number().integer().min(1).max(Integer.MAX_VALUE));

    /** The first-approvals page of an ask without {@code limit}, and the largest one. */
    static final int FIRST_APPROVALS_DEFAULT = 500;
    static final int FIRST_APPROVALS_MAX = 1000;

    /**
     * {@code GET /internal/requests/first-approvals} query, strings as sent: a malformed {@code after}
     * is an issue, not an empty page (the caller would take it for the end).
     */
    static final ObjectSchema FIRST_APPROVALS_QUERY = object()
            .field("partnerId", string().min(1).max(PARTNER_ID_MAX))
            .field("after", string().regex(UUID_FORM, "Invalid uuid").optional())
            .field("limit", number().coerce().integer().min(1).max(FIRST_APPROVALS_MAX).optional());

    private final MemberRequests requests;
    private final MemberDeletions deletions;
    private final MemberCopies copies;

    public InternalRequestResource(MemberRequests requests, MemberDeletions deletions, MemberCopies copies) {
        this.requests = requests;
        this.deletions = deletions;
        this.copies = copies;
    }

    public record Summaries(Map<String, List<MemberRequests.Summary>> summaries) {
    }

    public record HasRequests(boolean hasRequests) {
    }

    public record ForMember(List<MemberRequests.Assignment> requests) {
    }

    /**
     * A page of first approvals, member ids ascending; {@code next} the last member's id when the
     * page is full (ask again with {@code after=next}), null when it is the last page.
     */
    @JsonPropertyOrder({"members", "next"})
    public record FirstApprovals(List<MemberRequests.FirstApproval> members, UUID next) {
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

    /**
     * members-service, before it commits change {@code version} of a member: from now on this service's copy
     * of the member answers creates only once it holds that change or a newer one ({@link MemberCopies}).
     * Repeatable (the highest fence stays). {@code 204}.
     */
    @POST
    @Path("/member-fences")
    @Consumes(MediaType.APPLICATION_JSON)
    public void memberFence(JsonNode body) {
        MemberFenceInput input = Binding.bind(MEMBER_FENCE, body, MemberFenceInput.class);
        copies.fence(input.partnerId(), UUID.fromString(input.memberId()), input.version());
    }

    /** A member's requests, newest first, with their prescriber and stored status (messaging's prescriber resolution). */
    @GET
    @Path("/by-member")
    public ForMember byMember(@QueryParam("partnerId") String partnerId, @QueryParam("memberId") String memberId) {
        memberQuery(partnerId, memberId);
        return new ForMember(requests.assignments(partnerId, memberId));
    }

    /**
     * billing-service's rebuild: each member's first approval (the earliest {@code approved}
     * history entry over the partner's requests of the member, item and request-level approvals
     * alike), a page of at most {@code limit} (1 to 1,000, default 500) members with an id above
     * {@code after}, ascending; members never approved are not listed. Issues of the query
     * ({@link #FIRST_APPROVALS_QUERY}), all at once: 400.
     */
    @GET
    @Path("/first-approvals")
    public FirstApprovals firstApprovals(@QueryParam("partnerId") String partnerId, @QueryParam("after") String after,
                                         @QueryParam("limit") String limit) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        putIfSent(query, "partnerId", partnerId);
        putIfSent(query, "after", after);
        putIfSent(query, "limit", limit);
        FIRST_APPROVALS_QUERY.validate(query);
        int size = limit == null ? FIRST_APPROVALS_DEFAULT : NumberSchema.read(TextNode.valueOf(limit)).intValueExact();
        List<MemberRequests.FirstApproval> members = requests.firstApprovals(partnerId, Ids.uuid(after), size);
        return new FirstApprovals(members, members.size() == size ? members.get(members.size() - 1).memberId() : null);
    }

    private static void memberQuery(String partnerId, String memberId) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        putIfSent(query, "partnerId", partnerId);
        putIfSent(query, "memberId", memberId);
        MEMBER_QUERY.validate(query);
    }

    private static void putIfSent(ObjectNode query, String name, String value) {
        if (value != null) {
            query.put(name, value);
        }
    }
}

package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.NumberSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /internal/members}: what requests-service needs (inline member find-or-create, member
 * lookups), messaging-service's ownership check ({@code /{id}/access}) and billing-service's rebuild
 * ({@code /billing-export}). Never routed by the gateway, so there is no {@code X-Partner-Id}: the caller
 * names the partner in every call ({@code partnerId}, required) and only that partner's members
 * are seen. The contract is in README.md, "Internal API".
 */
@Path("/internal/members")
@Produces(MediaType.APPLICATION_JSON)
public class InternalMemberResource {

    /** {@code POST /internal/members/find-or-create} once it passed {@link MemberSchemas#FIND_OR_CREATE}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FindOrCreateBody(String partnerId, MemberInput member, Fenced fenced) {
    }

    /** The fence requests-service recorded for the change find-or-create asked for (null on a first ask). */
    public record Fenced(String memberId, long version) {
    }

    /** {@code POST /internal/members/batch} once it passed {@link MemberSchemas#BATCH}; ids not yet parsed. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record BatchBody(String partnerId, List<String> memberIds) {
    }

    private final MemberService members;
    private final MemberQueries queries;

    public InternalMemberResource(MemberService members, MemberQueries queries) {
        this.members = members;
        this.queries = queries;
    }

    /**
     * {@code 201 {member, created: true}} when created, {@code 200 {member, created: false}} when reused, or
     * {@code 200 {member: null, created: false, fence}} when the reuse's change was not fenced as asked
     * ({@link MemberService#findOrCreate}).
     */
    @POST
    @Path("/find-or-create")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response findOrCreate(JsonNode body) {
        FindOrCreateBody call = MemberSchemas.bind(MemberSchemas.FIND_OR_CREATE, body, FindOrCreateBody.class);
        MemberService.FoundOrCreated outcome = members.findOrCreate(call.partnerId(), call.member(),
                call.fenced() == null ? Optional.empty() : Ids.uuid(call.fenced().memberId())
                        .map(id -> new MemberService.Fence(id, call.fenced().version())));
        if (outcome.fence() != null) {
            return Response.ok(MemberViews.FoundOrCreated.fenceFirst(outcome.fence().memberId(), outcome.fence().version())).build();
        }
        return Response.status(outcome.created() ? 201 : 200)
                .entity(MemberViews.FoundOrCreated.of(MemberViews.Internal.of(outcome.member()), outcome.created()))
                .build();
    }

    /** {@code 200 {member}}; unknown, another partner's or malformed id: {@code 404 Member not found}. */
    @GET
    @Path("/{id}")
    public MemberViews.InternalEnvelope get(@PathParam("id") String id, @QueryParam("partnerId") String partnerId) {
        validatePartner(partnerId);
        return new MemberViews.InternalEnvelope(MemberViews.Internal.of(queries.read(partnerId, Ids.uuid(id))));
    }

    /**
     * {@code 200 {member}} as {@link #get}; another partner's member: {@code 403 Member does not
     * belong to this partner}; unknown or malformed id: {@code 404 Member not found}.
     */
    @GET
    @Path("/{id}/access")
    public MemberViews.InternalEnvelope access(@PathParam("id") String id, @QueryParam("partnerId") String partnerId) {
        validatePartner(partnerId);
        return new MemberViews.InternalEnvelope(MemberViews.Internal.of(queries.access(partnerId, Ids.uuid(id))));
    }

    /** {@code 200 {members}}: the partner's members among the ids, in the order asked, unknown ones left out. */
    @POST
    @Path("/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemberViews.InternalBatch batch(JsonNode body) {
        BatchBody call = MemberSchemas.bind(MemberSchemas.BATCH, body, BatchBody.class);
        List<UUID> ids = call.memberIds().stream().map(Ids::uuid).flatMap(Optional::stream).toList();
        return new MemberViews.InternalBatch(queries.batch(call.partnerId(), ids).stream()
                .map(MemberViews.Internal::of).toList());
    }

    /**
     * {@code 200 {members, next}}: billing-service's rebuild reads the partner's members a page at
     * a time, ids ascending after {@code after}, at most {@code limit} (1 to 1,000, default 500),
     * each with its names, email and every status it had ({@link MemberViews.BillingMember});
     * {@code next} is the page's last id when the page is full, else null. Issues of the query
     * ({@link MemberSchemas#BILLING_EXPORT_QUERY}), all at once: 400.
     */
    @GET
    @Path("/billing-export")
    public MemberViews.BillingExport billingExport(@QueryParam("partnerId") String partnerId,
                                                   @QueryParam("after") String after,
                                                   @QueryParam("limit") String limit) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        putIfSent(query, "partnerId", partnerId);
        putIfSent(query, "after", after);
        putIfSent(query, "limit", limit);
        MemberSchemas.BILLING_EXPORT_QUERY.validate(query);
        int size = limit == null ? MemberSchemas.BILLING_EXPORT_DEFAULT
                : NumberSchema.read(TextNode.valueOf(limit)).intValueExact();
        return MemberViews.BillingExport.of(queries.billingExport(partnerId, Ids.uuid(after), size), size);
    }

    private static void putIfSent(ObjectNode query, String name, String value) {
        if (value != null) {
            query.put(name, value);
        }
    }

    /** The {@code partnerId} query parameter: {@link MemberSchemas#INTERNAL_QUERY}, its issues a 400. */
    private static void validatePartner(String partnerId) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        putIfSent(query, "partnerId", partnerId);
        MemberSchemas.INTERNAL_QUERY.validate(query);
    }
}

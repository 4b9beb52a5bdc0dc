package com.telemed.members.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.id.Ids;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.validation.NumberSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.math.BigDecimal;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /v1/members} (partner-api.md, Members). Every call acts for the partner the gateway
 * authenticated; another partner's member is answered exactly like an unknown one. Bodies and the
 * list query are validated and bound here ({@link MemberSchemas#bind}); the services take records.
 */
@Path("/v1/members")
@Produces(MediaType.APPLICATION_JSON)
public class MemberResource {

    private static final int DEFAULT_LIMIT = 20;
    private static final BigDecimal MAX_PAGE = BigDecimal.valueOf(Long.MAX_VALUE / 2);

    /** The query of {@code GET /v1/members} once it passed {@link MemberSchemas#LIST_QUERY}: the strings sent. */
    public record ListQuery(String page, String limit, String search, String status) {
    }

    private final MemberService members;
    private final MemberQueries queries;
    private final MemberRequests requests;
    private final PartnerContext partner;

    public MemberResource(MemberService members, MemberQueries queries, MemberRequests requests,
                          PartnerContext partner) {
        this.members = members;
        this.queries = queries;
        this.requests = requests;
        this.partner = partner;
    }

    @Tag(name = "Members")
    @Operation(operationId = "createMember", summary = "Create a member (status active)")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "MemberInput")))
    @APIResponse(responseCode = "201", description = "Created", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MemberCreatedEnvelope")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        String partnerId = partner.partnerId();
        MemberInput input = MemberSchemas.bind(MemberSchemas.CREATE, body, MemberInput.class);
        Member member = members.create(partnerId, input);
        return Response.status(201).entity(new MemberViews.CreatedEnvelope(true, MemberViews.Created.of(member))).build();
    }

    @Tag(name = "Members")
    @Operation(operationId = "getMember", summary = "One member with its requests (no success wrapper)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Member UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The member", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MemberWithRequests")))
    @APIResponse(responseCode = "404", ref = "MemberNotFound")
    @GET
    @Path("/{id}")
    public MemberViews.WithRequests get(@PathParam("id") String id) {
        String partnerId = partner.partnerId();
        Member member = queries.get(partnerId, Ids.uuid(id));
        return MemberViews.WithRequests.of(member, requests.forMember(partnerId, member.id));
    }

    @Tag(name = "Members")
    @Operation(operationId = "updateMember", summary = "Partial update; only included fields change")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Member UUID", schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "MemberPatch")))
    @APIResponse(responseCode = "200", description = "The full stored member, without requests", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MemberStoredEnvelope")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "MemberNotFound")
    @PUT
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemberViews.StoredEnvelope update(@PathParam("id") String id, JsonNode body) {
        String partnerId = partner.partnerId();
        MemberPatch patch = MemberSchemas.bind(MemberSchemas.UPDATE, body, MemberPatch.class);
        return new MemberViews.StoredEnvelope(true, MemberViews.Stored.of(members.update(partnerId, Ids.uuid(id), patch)));
    }

    /** 204 with no body; 400 when the member has requests; 503 when that cannot be known. */
    @Tag(name = "Members")
    @Operation(operationId = "deleteMember", summary = "Permanently delete a member with no requests")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Member UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "204", description = "Deleted, no body")
    @APIResponse(responseCode = "400", description = "The member has requests", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "hasRequests", ref = "deleteMember.hasRequests")}))
    @APIResponse(responseCode = "404", ref = "MemberNotFound")
    @DELETE
    @Path("/{id}")
    public Response delete(@PathParam("id") String id) {
        members.delete(partner.partnerId(), Ids.uuid(id));
        return Response.noContent().build();
    }

    @Tag(name = "Members")
    @Operation(operationId = "listMembers", summary = "List members with their requests, newest first")
    @Parameter(name = "search", in = ParameterIn.QUERY, description = "Case-insensitive substring of firstName, lastName or email.", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, enumeration = {"active", "paused", "cancelled"}))
    @Parameter(name = "page", in = ParameterIn.QUERY, description = "1-based page (integer, sent as a string).", schema = @Schema(type = SchemaType.INTEGER, minimum = "1", defaultValue = "1"))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "20"))
    @APIResponse(responseCode = "200", description = "One page", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MemberPage")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @GET
    public MemberViews.Page list(@Context UriInfo uri) {
        String partnerId = partner.partnerId();
        MultivaluedMap<String, String> params = uri.getQueryParameters();
        ObjectNode sent = JsonNodeFactory.instance.objectNode();
        for (String name : List.of("page", "limit", "search", "status")) {
            String value = params.getFirst(name);
            if (value != null) {
                sent.put(name, value);
            }
        }
        ListQuery query = MemberSchemas.bind(MemberSchemas.LIST_QUERY, sent, ListQuery.class);
        long page = query.page() == null ? 1 : number(query.page()).min(MAX_PAGE).longValueExact();
        int limit = query.limit() == null ? DEFAULT_LIMIT : number(query.limit()).intValueExact();

        MemberQueries.Found found = queries.list(partnerId, query.search(), query.status(), page, limit);
        List<MemberViews.WithRequests> views = found.members().stream()
                .map(member -> MemberViews.WithRequests.of(member, found.requests().getOrDefault(member.id, List.of())))
                .toList();
        long totalPages = (found.total() + limit - 1) / limit;
        return new MemberViews.Page(views, new MemberViews.Pagination(page, limit, found.total(), totalPages));
    }

    /** A valid coerced number of the query, read as its schema read it. */
    private static BigDecimal number(String sent) {
        return NumberSchema.read(TextNode.valueOf(sent));
    }
}

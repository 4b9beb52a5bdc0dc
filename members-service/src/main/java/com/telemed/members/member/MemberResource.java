package com.telemed.members.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/**
 * {@code /v1/members} (partner-api.md, Members). Every call acts for the partner the gateway
 * authenticated; another partner's member is answered exactly like an unknown one.
 */
@Path("/v1/members")
@Produces(MediaType.APPLICATION_JSON)
public class MemberResource {

    private static final int DEFAULT_LIMIT = 20;
    private static final BigDecimal MAX_PAGE = BigDecimal.valueOf(Long.MAX_VALUE / 2);

    private final MemberService members;
    private final MemberRequests requests;
    private final PartnerContext partner;

    public MemberResource(MemberService members, MemberRequests requests, PartnerContext partner) {
        this.members = members;
        this.requests = requests;
        this.partner = partner;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        String partnerId = partner.partnerId();
        MemberSchemas.CREATE.validate(body);
        Member member = members.create(partnerId, body);
        return Response.status(201).entity(new MemberViews.CreatedEnvelope(true, MemberViews.Created.of(member))).build();
    }

    @GET
    @Path("/{id}")
    public MemberViews.WithRequests get(@PathParam("id") String id) {
        String partnerId = partner.partnerId();
        Member member = members.get(partnerId, Ids.uuid(id));
        return MemberViews.WithRequests.of(member, requests.forMember(partnerId, member.id));
    }

    @PUT
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemberViews.StoredEnvelope update(@PathParam("id") String id, JsonNode body) {
        String partnerId = partner.partnerId();
        MemberSchemas.UPDATE.validate(body);
        return new MemberViews.StoredEnvelope(true, MemberViews.Stored.of(members.update(partnerId, Ids.uuid(id), body)));
    }

    /** 204 with no body; 400 when the member has requests; 503 when that cannot be known. */
    @DELETE
    @Path("/{id}")
    public Response delete(@PathParam("id") String id) {
        members.delete(partner.partnerId(), Ids.uuid(id));
        return Response.noContent().build();
    }

    @GET
    public MemberViews.Page list(@Context UriInfo uri) {
        String partnerId = partner.partnerId();
        MultivaluedMap<String, String> params = uri.getQueryParameters();
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        for (String name : List.of("page", "limit", "search", "status")) {
            String value = params.getFirst(name);
            if (value != null) {
                query.put(name, value);
            }
        }
        MemberSchemas.LIST_QUERY.validate(query);
        long page = query.has("page") ? NumberSchema.read(query.get("page")).min(MAX_PAGE).longValueExact() : 1;
        int limit = query.has("limit") ? NumberSchema.read(query.get("limit")).intValueExact() : DEFAULT_LIMIT;
        String search = query.has("search") ? query.get("search").textValue() : null;
        String status = query.has("status") ? query.get("status").textValue() : null;

        MemberService.Found found = members.list(partnerId, search, status, page, limit);
        List<MemberViews.WithRequests> views = found.members().stream()
                .map(member -> MemberViews.WithRequests.of(member, found.requests().getOrDefault(member.id, List.of())))
                .toList();
        long totalPages = (found.total() + limit - 1) / limit;
        return new MemberViews.Page(views, new MemberViews.Pagination(page, limit, found.total(), totalPages));
    }
}

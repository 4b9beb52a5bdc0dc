package com.telemed.requests.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.json.Timestamps;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.NumberSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
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
 * {@code /v1/requests} (partner-api.md, Requests). Every call acts for the partner the gateway
 * authenticated; another partner's request is answered exactly like an unknown one.
 */
@Path("/v1/requests")
@Produces(MediaType.APPLICATION_JSON)
public class RequestResource {

    private static final int DEFAULT_LIMIT = 20;
    private static final BigDecimal MAX_PAGE = BigDecimal.valueOf(Long.MAX_VALUE / 200);

    private final RequestCreation creation;
    private final RequestQueries queries;
    private final Cancellations cancellations;
    private final PartnerContext partner;

    public RequestResource(RequestCreation creation, RequestQueries queries, Cancellations cancellations,
                           PartnerContext partner) {
        this.creation = creation;
        this.queries = queries;
        this.cancellations = cancellations;
        this.partner = partner;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body, @HeaderParam("Idempotency-Key") String idempotencyKey) {
        String partnerId = partner.partnerId();
        RequestInput input = RequestSchemas.createInput(body, idempotencyKey, Timestamps::now);
        RequestCreation.Outcome outcome = creation.create(partnerId, input, idempotencyKey);
        return Response.status(outcome.replay() ? 200 : 201)
                .entity(RequestViews.Created.of(outcome.request(), outcome.replay()))
                .build();
    }

    @GET
    public RequestViews.Page list(@Context UriInfo uri) {
        String partnerId = partner.partnerId();
        MultivaluedMap<String, String> params = uri.getQueryParameters();
        ObjectNode query = emptyObject();
        for (String name : List.of("startDate", "endDate", "status", "page", "limit")) {
            String value = params.getFirst(name);
            if (value != null) {
                query.put(name, value);
            }
        }
        RequestSchemas.LIST_QUERY.validate(query);
        return queries.list(partnerId, new RequestQueries.ListQuery(
                text(query, "startDate"), text(query, "endDate"), text(query, "status"),
                query.has("page") ? NumberSchema.read(query.get("page")).min(MAX_PAGE).longValueExact() : 1,
                query.has("limit") ? NumberSchema.read(query.get("limit")).intValueExact() : DEFAULT_LIMIT));
    }

    @GET
    @Path("/{id}")
    public RequestViews.Detail get(@PathParam("id") String id) {
        return queries.detail(partner.partnerId(), id);
    }

    /** 204 with no body; only while the stored status is pending. */
    @DELETE
    @Path("/{id}")
    public Response delete(@PathParam("id") String id) {
        cancellations.delete(partner.partnerId(), id);
        return Response.noContent().build();
    }

    /** {@code POST /v1/requests/:id/cancel}, bound after {@link RequestSchemas#CANCEL}: absent fields are null. */
    public record CancelInput(String reason, List<String> itemIds) {
    }

    @POST
    @Path("/{id}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    public Cancellations.Outcome cancel(@PathParam("id") String id, JsonNode body) {
        String partnerId = partner.partnerId();
        CancelInput input = Binding.bind(RequestSchemas.CANCEL, body, CancelInput.class);
        String reason = input.reason() != null ? input.reason() : Cancellations.DEFAULT_REASON;
        return cancellations.cancel(partnerId, id, reason, input.itemIds(), HistoryEntry.partner(partnerId));
    }

    private static ObjectNode emptyObject() {
        return JsonNodeFactory.instance.objectNode();
    }

    private static String text(JsonNode node, String field) {
        return node.has(field) ? node.get(field).textValue() : null;
    }
}

package com.telemed.requests.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The prescriber console: queue, claim and the item-level decisions (operations-api.md, "Review"). */
@Path("/ops/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ReviewResource {

    private static final int DEFAULT_QUEUE_LIMIT = 50;

    private final Review review;

    public ReviewResource(Review review) {
        this.review = review;
    }

    @GET
    @Path("/review/queue")
    public ReviewViews.Queue queue(@QueryParam("limit") String limit) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (limit != null) {
            query.put("limit", limit);
        }
        ReviewSchemas.QUEUE_QUERY.validate(query);
        return review.queue(limit == null ? DEFAULT_QUEUE_LIMIT : NumberSchema.read(query.get("limit")).intValueExact());
    }

    @POST
    @Path("/requests/{id}/claim")
    public ReviewViews.Outcome claim(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.PRESCRIBER, body);
        return review.claim(id, input.get("prescriberId").textValue());
    }

    @POST
    @Path("/requests/{id}/items/{itemId}/approve")
    public ReviewViews.Outcome approve(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.APPROVE_ITEM, body);
        return review.approveItem(id, itemId, input.get("prescriberId").textValue(), input.get("prescription"));
    }

    @POST
    @Path("/requests/{id}/items/{itemId}/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.WITH_REASON, body);
        return review.denyItem(id, itemId, input.get("prescriberId").textValue(), text(input, "reason"));
    }

    @POST
    @Path("/requests/{id}/items/{itemId}/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, @PathParam("itemId") String itemId,
                                                   JsonNode body) {
        JsonNode input = valid(ReviewSchemas.PRESCRIBER, body);
        return review.requestItemConsultation(id, itemId, input.get("prescriberId").textValue());
    }

    @POST
    @Path("/requests/{id}/items/{itemId}/dosage")
    public ReviewViews.Outcome dosage(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.DOSAGE, body);
        return review.updateDosage(id, itemId, input.get("prescriberId").textValue(), input.get("skuId").textValue());
    }

    @POST
    @Path("/requests/{id}/notes")
    public ReviewViews.Outcome note(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.NOTE, body);
        return review.addNote(id, input.get("prescriberId").textValue(), input.get("text").textValue());
    }

    /** An absent body reads as {} (every required field is then reported), as Express's JSON parser gives it. */
    static JsonNode valid(ObjectSchema schema, JsonNode body) {
        JsonNode input = body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
        schema.validate(input);
        return input;
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.textValue();
    }
}

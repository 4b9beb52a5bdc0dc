package com.telemed.requests.review;

import static com.telemed.requests.review.Bodies.text;
import static com.telemed.requests.review.Bodies.valid;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Item-level decisions of the prescriber console (item event names) and the dosage choice before
 * approval (operations-api.md, "Review").
 */
@Path("/ops/v1/requests/{id}/items/{itemId}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ItemDecisionResource {

    private final Review review;

    public ItemDecisionResource(Review review) {
        this.review = review;
    }

    @POST
    @Path("/approve")
    public ReviewViews.Outcome approve(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.APPROVE_ITEM, body);
        return review.approveItem(id, itemId, input.get("prescriberId").textValue(), input.get("prescription"));
    }

    @POST
    @Path("/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.WITH_REASON, body);
        return review.denyItem(id, itemId, input.get("prescriberId").textValue(), text(input, "reason"));
    }

    @POST
    @Path("/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, @PathParam("itemId") String itemId,
                                                   JsonNode body) {
        JsonNode input = valid(ReviewSchemas.PRESCRIBER, body);
        return review.requestItemConsultation(id, itemId, input.get("prescriberId").textValue());
    }

    @POST
    @Path("/dosage")
    public ReviewViews.Outcome dosage(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.DOSAGE, body);
        return review.updateDosage(id, itemId, input.get("prescriberId").textValue(), input.get("skuId").textValue());
    }
}

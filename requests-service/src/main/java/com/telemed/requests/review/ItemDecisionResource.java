package com.telemed.requests.review;

import static com.telemed.common.validation.Binding.bind;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Item-level decisions of the prescriber console (item event names) and the dosage choice before
 * approval (operations-api.md, "Review"). Each body is validated and bound here, then handed on.
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
        return review.approveItem(id, itemId, bind(ReviewSchemas.APPROVE_ITEM, body, ReviewInput.ItemApproval.class));
    }

    @POST
    @Path("/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        ReviewInput.WithReason input = bind(ReviewSchemas.WITH_REASON, body, ReviewInput.WithReason.class);
        return review.denyItem(id, itemId, input.prescriberId(), input.reason());
    }

    @POST
    @Path("/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, @PathParam("itemId") String itemId,
                                                   JsonNode body) {
        ReviewInput.Acting input = bind(ReviewSchemas.PRESCRIBER, body, ReviewInput.Acting.class);
        return review.requestItemConsultation(id, itemId, input.prescriberId());
    }

    @POST
    @Path("/dosage")
    public ReviewViews.Outcome dosage(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        ReviewInput.Dosage input = bind(ReviewSchemas.DOSAGE, body, ReviewInput.Dosage.class);
        return review.updateDosage(id, itemId, input.prescriberId(), input.skuId());
    }
}

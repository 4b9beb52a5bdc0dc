package com.telemed.requests.review;

import static com.telemed.requests.review.ReviewSchemas.actingInput;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.prescriber.InPerson;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Item-level decisions of the prescriber console (item event names) and the dosage choice before
 * approval (operations-api.md, "Review"). Each body is validated and bound here, then handed on.
 */
@Path("/ops/v1/requests/{id}/items/{itemId}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ItemDecisionResource {

    private final Review review;
    private final InPerson inPerson;

    public ItemDecisionResource(Review review, InPerson inPerson) {
        this.review = review;
        this.inPerson = inPerson;
    }

    @Tag(name = "Review")
    @Operation(operationId = "item_approve", summary = "Approve and sign (item.approved)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "itemId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "ApproveItemBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/approve")
    public ReviewViews.Outcome approve(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        return review.approveItem(id, itemId, actingInput(ReviewSchemas.APPROVE_ITEM, body, inPerson.prescriber(), ReviewInput.ItemApproval.class));
    }

    @Tag(name = "Review")
    @Operation(operationId = "item_deny", summary = "Deny (item.denied)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "itemId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "ReasonBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        ReviewInput.WithReason input = actingInput(ReviewSchemas.WITH_REASON, body, inPerson.prescriber(), ReviewInput.WithReason.class);
        return review.denyItem(id, itemId, input.prescriberId(), input.reason());
    }

    @Tag(name = "Review")
    @Operation(operationId = "item_request_consultation", summary = "Ask for a consultation (item.consultation_requested)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "itemId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberActionBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, @PathParam("itemId") String itemId,
                                                   JsonNode body) {
        ReviewInput.Acting input = actingInput(ReviewSchemas.PRESCRIBER, body, inPerson.prescriber(), ReviewInput.Acting.class);
        return review.requestItemConsultation(id, itemId, input.prescriberId());
    }

    @Tag(name = "Review")
    @Operation(operationId = "item_dosage", summary = "Change the SKU before approval (history dosage_updated)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "itemId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "DosageBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/dosage")
    public ReviewViews.Outcome dosage(@PathParam("id") String id, @PathParam("itemId") String itemId, JsonNode body) {
        ReviewInput.Dosage input = actingInput(ReviewSchemas.DOSAGE, body, inPerson.prescriber(), ReviewInput.Dosage.class);
        return review.updateDosage(id, itemId, input.prescriberId(), input.skuId());
    }
}

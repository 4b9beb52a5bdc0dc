package com.telemed.requests.review;

import static com.telemed.common.validation.Binding.bind;
import static com.telemed.requests.review.ReviewSchemas.actingInput;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.requests.prescriber.InPerson;
import com.telemed.requests.request.Cancellations;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestQueries;
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
 * The console's actions on a whole request (operations-api.md, "Review"): claim, notes, the
 * request-level decisions of the single-prescription flow (legacy event names) and the service's
 * withdraw. Each body is validated and bound here, then handed on.
 */
@Path("/ops/v1/requests/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RequestDecisionResource {

    private final Review review;
    private final RequestLevelDecisions decisions;
    private final Cancellations cancellations;
    private final InPerson inPerson;

    public RequestDecisionResource(Review review, RequestLevelDecisions decisions, Cancellations cancellations, InPerson inPerson) {
        this.review = review;
        this.decisions = decisions;
        this.cancellations = cancellations;
        this.inPerson = inPerson;
    }

    @Tag(name = "Review")
    @Operation(operationId = "request_claim", summary = "Claim the request for a prescriber")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberActionBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/claim")
    public ReviewViews.Outcome claim(@PathParam("id") String id, JsonNode body) {
        return review.claim(id, actingInput(ReviewSchemas.PRESCRIBER, body, inPerson.prescriber(), ReviewInput.Acting.class).prescriberId());
    }

    @Tag(name = "Review")
    @Operation(operationId = "request_notes", summary = "Add a note (history note_added)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "NoteBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/notes")
    public ReviewViews.Outcome note(@PathParam("id") String id, JsonNode body) {
        ReviewInput.Note input = actingInput(ReviewSchemas.NOTE, body, inPerson.prescriber(), ReviewInput.Note.class);
        return review.addNote(id, input.prescriberId(), input.text());
    }

    @Tag(name = "Review")
    @Operation(operationId = "request_approve", summary = "Approve as a whole (request.approved)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "ApproveRequestBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/approve")
    public ReviewViews.Outcome approve(@PathParam("id") String id, JsonNode body) {
        return decisions.approve(id, actingInput(ReviewSchemas.APPROVE_REQUEST, body, inPerson.prescriber(), ReviewInput.RequestApproval.class));
    }

    @Tag(name = "Review")
    @Operation(operationId = "request_deny", summary = "Deny as a whole (request.denied)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "ReasonBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, JsonNode body) {
        ReviewInput.WithReason input = actingInput(ReviewSchemas.WITH_REASON, body, inPerson.prescriber(), ReviewInput.WithReason.class);
        return decisions.deny(id, input.prescriberId(), input.reason(), false);
    }

    @Tag(name = "Review")
    @Operation(operationId = "request_complete_without_rx", summary = "Visit ended with no prescription (request.denied)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "ReasonBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/complete-without-rx")
    public ReviewViews.Outcome completeWithoutRx(@PathParam("id") String id, JsonNode body) {
        ReviewInput.WithReason input = actingInput(ReviewSchemas.WITH_REASON, body, inPerson.prescriber(), ReviewInput.WithReason.class);
        return decisions.deny(id, input.prescriberId(), input.reason(), true);
    }

    @Tag(name = "Review")
    @Operation(operationId = "request_request_consultation", summary = "Issue a booking link (request.consultation_requested)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberActionBody")))
    @APIResponse(responseCode = "200", ref = "ReviewOutcome")
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "403", ref = "DrugForbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, JsonNode body) {
        return decisions.requestConsultation(id, actingInput(ReviewSchemas.PRESCRIBER, body, inPerson.prescriber(), ReviewInput.Acting.class).prescriberId());
    }

    /** The service withdraws every untransmitted item: the partner cancel's effects and events, {@code by} = service. */
    @Tag(name = "Review")
    @Operation(operationId = "withdrawRequest", summary = "The service withdraws every untransmitted item (as the partner cancel, by service)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = false, content = @Content(mediaType = "application/json", schema = @Schema(ref = "WithdrawRequestBody")))
    @APIResponse(responseCode = "200", description = "What was cancelled and what was skipped", content = @Content(mediaType = "application/json", schema = @Schema(ref = "CancelOutcome")))
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "404", ref = "RequestNotFound")
    @POST
    @Path("/withdraw")
    public Cancellations.Outcome withdraw(@PathParam("id") String id, JsonNode body) {
        ReviewInput.Withdrawal input = bind(ReviewSchemas.WITHDRAW, body, ReviewInput.Withdrawal.class);
        String partnerId = Ids.uuid(id).map(uuid -> Request.<Request>findById(uuid)).map(request -> request.partnerId)
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        return cancellations.withdraw(partnerId, id, input.reason());
    }
}

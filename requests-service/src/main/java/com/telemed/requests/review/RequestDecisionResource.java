package com.telemed.requests.review;

import static com.telemed.common.validation.Binding.bind;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
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

    public RequestDecisionResource(Review review, RequestLevelDecisions decisions, Cancellations cancellations) {
        this.review = review;
        this.decisions = decisions;
        this.cancellations = cancellations;
    }

    @POST
    @Path("/claim")
    public ReviewViews.Outcome claim(@PathParam("id") String id, JsonNode body) {
        return review.claim(id, bind(ReviewSchemas.PRESCRIBER, body, ReviewInput.Acting.class).prescriberId());
    }

    @POST
    @Path("/notes")
    public ReviewViews.Outcome note(@PathParam("id") String id, JsonNode body) {
        ReviewInput.Note input = bind(ReviewSchemas.NOTE, body, ReviewInput.Note.class);
        return review.addNote(id, input.prescriberId(), input.text());
    }

    @POST
    @Path("/approve")
    public ReviewViews.Outcome approve(@PathParam("id") String id, JsonNode body) {
        return decisions.approve(id, bind(ReviewSchemas.APPROVE_REQUEST, body, ReviewInput.RequestApproval.class));
    }

    @POST
    @Path("/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, JsonNode body) {
        ReviewInput.WithReason input = bind(ReviewSchemas.WITH_REASON, body, ReviewInput.WithReason.class);
        return decisions.deny(id, input.prescriberId(), input.reason(), false);
    }

    @POST
    @Path("/complete-without-rx")
    public ReviewViews.Outcome completeWithoutRx(@PathParam("id") String id, JsonNode body) {
        ReviewInput.WithReason input = bind(ReviewSchemas.WITH_REASON, body, ReviewInput.WithReason.class);
        return decisions.deny(id, input.prescriberId(), input.reason(), true);
    }

    @POST
    @Path("/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, JsonNode body) {
        return decisions.requestConsultation(id, bind(ReviewSchemas.PRESCRIBER, body, ReviewInput.Acting.class).prescriberId());
    }

    /** The service withdraws every untransmitted item: the partner cancel's effects and events, {@code by} = service. */
    @POST
    @Path("/withdraw")
    public Cancellations.Outcome withdraw(@PathParam("id") String id, JsonNode body) {
        ReviewInput.Withdrawal input = bind(ReviewSchemas.WITHDRAW, body, ReviewInput.Withdrawal.class);
        String partnerId = Ids.uuid(id).map(uuid -> Request.<Request>findById(uuid)).map(request -> request.partnerId)
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        return cancellations.cancel(partnerId, id, input.reason(), null, HistoryEntry.SERVICE);
    }
}

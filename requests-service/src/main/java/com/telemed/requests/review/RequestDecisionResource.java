package com.telemed.requests.review;

import static com.telemed.requests.review.Bodies.text;
import static com.telemed.requests.review.Bodies.valid;

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
 * withdraw.
 */
@Path("/ops/v1/requests/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RequestDecisionResource {

    private final Review review;
    private final Cancellations cancellations;

    public RequestDecisionResource(Review review, Cancellations cancellations) {
        this.review = review;
        this.cancellations = cancellations;
    }

    @POST
    @Path("/claim")
    public ReviewViews.Outcome claim(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.PRESCRIBER, body);
        return review.claim(id, input.get("prescriberId").textValue());
    }

    @POST
    @Path("/notes")
    public ReviewViews.Outcome note(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.NOTE, body);
        return review.addNote(id, input.get("prescriberId").textValue(), input.get("text").textValue());
    }

    @POST
    @Path("/approve")
    public ReviewViews.Outcome approve(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.APPROVE_REQUEST, body);
        return review.approveRequest(id, input.get("prescriberId").textValue(), text(input, "drugId"), input.get("prescription"));
    }

    @POST
    @Path("/deny")
    public ReviewViews.Outcome deny(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.WITH_REASON, body);
        return review.denyRequest(id, input.get("prescriberId").textValue(), text(input, "reason"), false);
    }

    @POST
    @Path("/complete-without-rx")
    public ReviewViews.Outcome completeWithoutRx(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.WITH_REASON, body);
        return review.denyRequest(id, input.get("prescriberId").textValue(), text(input, "reason"), true);
    }

    @POST
    @Path("/request-consultation")
    public ReviewViews.Outcome requestConsultation(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.PRESCRIBER, body);
        return review.requestConsultation(id, input.get("prescriberId").textValue());
    }

    /** The service withdraws every untransmitted item: the partner cancel's effects and events, {@code by} = service. */
    @POST
    @Path("/withdraw")
    public Cancellations.Outcome withdraw(@PathParam("id") String id, JsonNode body) {
        JsonNode input = valid(ReviewSchemas.WITHDRAW, body);
        String partnerId = Ids.uuid(id).map(uuid -> Request.<Request>findById(uuid)).map(request -> request.partnerId)
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        return cancellations.cancel(partnerId, id, input.get("reason").textValue(), null, HistoryEntry.SERVICE);
    }
}

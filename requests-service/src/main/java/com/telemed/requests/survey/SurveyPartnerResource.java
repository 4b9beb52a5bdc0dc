package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /v1/surveys/v2} (API key; partner from {@code X-Partner-Id}): the intake survey of a drug,
 * and returning-member tokens.
 */
@Path("/v1/surveys/v2")
@Produces(MediaType.APPLICATION_JSON)
public class SurveyPartnerResource {

    private final Surveys surveys;
    private final SurveyTokens tokens;
    private final PartnerContext partner;

    public SurveyPartnerResource(Surveys surveys, SurveyTokens tokens, PartnerContext partner) {
        this.surveys = surveys;
        this.tokens = tokens;
        this.partner = partner;
    }

    @GET
    @Path("/lookup")
    public SurveyViews.Lookup lookup(@QueryParam("drugId") String drugId) {
        // Surveys are platform-wide: the partner is only required (401 API Key missing without one).
        partner.partnerId();
        return surveys.lookup(drugId);
    }

    /** {@code 201 {token, expiresAt}}. */
    @POST
    @Path("/tokens")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response token(JsonNode body) {
        return Response.status(201).entity(tokens.issue(partner.partnerId(), body)).build();
    }
}

package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /v2/embed} (Survey v2 from the browser). The gateway owns the publishable key, the
 * origin allow-list and the preflights, and forwards the key's partner as {@code X-Partner-Id};
 * a call without one (not through the gateway) is {@code 401 Invalid publishable key}.
 */
@Path("/v2/embed")
@Produces(MediaType.APPLICATION_JSON)
public class EmbedSurveyResource {

    static final String INVALID_KEY = "Invalid publishable key";

    private final Surveys surveys;
    private final SurveyResponses responses;

    public EmbedSurveyResource(Surveys surveys, SurveyResponses responses) {
        this.surveys = surveys;
        this.responses = responses;
    }

    @GET
    @Path("/surveys/{surveyId}")
    public SurveyViews.SurveyView survey(@HeaderParam(PartnerContext.HEADER) String partnerId,
                                         @PathParam("surveyId") String surveyId) {
        partner(partnerId);
        return surveys.forBrowser(surveyId);
    }

    /** Anonymous: {@code 201 {responseId, qualified}}. */
    @POST
    @Path("/surveys/{surveyId}/responses")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(@HeaderParam(PartnerContext.HEADER) String partnerId, @PathParam("surveyId") String surveyId,
                           JsonNode body) {
        return Response.status(201).entity(responses.submit(partner(partnerId), surveyId, body)).build();
    }

    @GET
    @Path("/by-token/survey")
    public SurveyViews.SurveyView surveyOfToken(@HeaderParam(PartnerContext.HEADER) String partnerId,
                                                @QueryParam("token") String token) {
        return responses.surveyOfToken(partner(partnerId), token);
    }

    /** A returning member's: {@code 201 {responseId, qualified}}. */
    @POST
    @Path("/by-token/responses")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submitWithToken(@HeaderParam(PartnerContext.HEADER) String partnerId, @QueryParam("token") String token,
                                    JsonNode body) {
        return Response.status(201).entity(responses.submitWithToken(partner(partnerId), token, body)).build();
    }

    private static String partner(String partnerId) {
        if (partnerId == null || partnerId.isBlank()) {
            throw new ApiException(401, INVALID_KEY);
        }
        return partnerId;
    }
}

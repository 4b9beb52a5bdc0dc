package com.telemed.requests.survey;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /v2/public} (Survey v2, server side; API key, partner from {@code X-Partner-Id}): a
 * survey's whole definition, and the partner's own responses (another partner's is unknown: 404).
 */
@Path("/v2/public")
@Produces(MediaType.APPLICATION_JSON)
public class PublicSurveyResource {

    private final Surveys surveys;
    private final SurveyResponses responses;
    private final PartnerContext partner;

    public PublicSurveyResource(Surveys surveys, SurveyResponses responses, PartnerContext partner) {
        this.surveys = surveys;
        this.responses = responses;
        this.partner = partner;
    }

    @GET
    @Path("/surveys/{surveyId}")
    public SurveyViews.SurveyView survey(@PathParam("surveyId") String surveyId) {
        // Surveys are platform-wide: the partner is only required (401 API Key missing without one).
        partner.partnerId();
        return surveys.get(surveyId);
    }

    @GET
    @Path("/responses/{responseId}")
    public SurveyViews.ResponseView response(@PathParam("responseId") String responseId) {
        return responses.get(partner.partnerId(), responseId);
    }
}

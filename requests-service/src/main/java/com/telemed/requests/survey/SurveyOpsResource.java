package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /ops/v1/surveys} (operations-api.md, "Intake surveys"): the operator defines and reads surveys. The edge checked the operator key. */
@Path("/ops/v1/surveys")
@Produces(MediaType.APPLICATION_JSON)
public class SurveyOpsResource {

    private final Surveys surveys;

    public SurveyOpsResource(Surveys surveys) {
        this.surveys = surveys;
    }

    /** Creates or replaces: {@code 200 {survey}}. */
    @PUT
    @Path("/{surveyId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public SurveyViews.SurveyView put(@PathParam("surveyId") String surveyId, JsonNode body) {
        return surveys.put(surveyId, body);
    }

    @GET
    @Path("/{surveyId}")
    public SurveyViews.SurveyView get(@PathParam("surveyId") String surveyId) {
        return surveys.get(surveyId);
    }
}

package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
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

/** {@code /ops/v1/surveys} (operations-api.md, "Intake surveys"): the operator defines and reads surveys. The edge checked the operator key. */
@Path("/ops/v1/surveys")
@Produces(MediaType.APPLICATION_JSON)
public class SurveyOpsResource {

    private final Surveys surveys;

    public SurveyOpsResource(Surveys surveys) {
        this.surveys = surveys;
    }

    /** Creates or replaces: {@code 200 {survey}}. */
    @Tag(name = "Intake surveys")
    @Operation(operationId = "putSurvey", summary = "Create or replace an intake survey")
    @Parameter(name = "surveyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutSurveyBody")))
    @APIResponse(responseCode = "200", description = "The survey", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveyEnvelope")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Path("/{surveyId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public SurveyViews.SurveyView put(@PathParam("surveyId") String surveyId, JsonNode body) {
        return surveys.put(surveyId, SurveySchemas.definitionInput(surveyId, body));
    }

    @Tag(name = "Intake surveys")
    @Operation(operationId = "getSurvey")
    @Parameter(name = "surveyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The survey, with its rules", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveyEnvelope")))
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @GET
    @Path("/{surveyId}")
    public SurveyViews.SurveyView get(@PathParam("surveyId") String surveyId) {
        return surveys.get(surveyId);
    }
}

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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

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

    @Tag(name = "Embed")
    @Operation(operationId = "embedGetSurvey", summary = "A survey's definition for the browser (no disqualification rules)")
    @SecurityRequirement(name = "publishableKey")
    @Parameter(name = "surveyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The definition", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveyEnvelope")))
    @APIResponse(responseCode = "403", ref = "OriginNotAllowed")
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @GET
    @Path("/surveys/{surveyId}")
    public SurveyViews.SurveyView survey(@HeaderParam(PartnerContext.HEADER) String partnerId,
                                         @PathParam("surveyId") String surveyId) {
        partner(partnerId);
        return surveys.forBrowser(surveyId);
    }

    /** Anonymous: {@code 201 {responseId, qualified}}. */
    @Tag(name = "Embed")
    @Operation(operationId = "embedSubmitSurvey", summary = "Submit an anonymous survey response (emits survey.completed)")
    @SecurityRequirement(name = "publishableKey")
    @Parameter(name = "surveyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveySubmission")))
    @APIResponse(responseCode = "201", description = "Stored", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveySubmitted")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "403", ref = "OriginNotAllowed")
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @APIResponse(responseCode = "429", ref = "SubmissionLimit")
    @POST
    @Path("/surveys/{surveyId}/responses")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(@HeaderParam(PartnerContext.HEADER) String partnerId, @PathParam("surveyId") String surveyId,
                           JsonNode body) {
        return Response.status(201).entity(responses.submit(partner(partnerId), surveyId,
                questions -> SurveySchemas.responseInput(questions, body))).build();
    }

    @Tag(name = "Embed")
    @Operation(operationId = "embedSurveyOfToken", summary = "The survey a returning member's token opens")
    @SecurityRequirementsSet({@SecurityRequirement(name = "publishableKey"), @SecurityRequirement(name = "surveyToken")})
    @Parameter(name = "token", in = ParameterIn.QUERY, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The definition", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveyEnvelope")))
    @APIResponse(responseCode = "403", ref = "OriginNotAllowed")
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @GET
    @Path("/by-token/survey")
    public SurveyViews.SurveyView surveyOfToken(@HeaderParam(PartnerContext.HEADER) String partnerId,
                                                @QueryParam("token") String token) {
        return responses.surveyOfToken(partner(partnerId), token);
    }

    /** A returning member's: {@code 201 {responseId, qualified}}. */
    @Tag(name = "Embed")
    @Operation(operationId = "embedSubmitWithToken", summary = "Submit a returning member's response (emits survey.completed, mode refill)")
    @SecurityRequirementsSet({@SecurityRequirement(name = "publishableKey"), @SecurityRequirement(name = "surveyToken")})
    @Parameter(name = "token", in = ParameterIn.QUERY, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveySubmission")))
    @APIResponse(responseCode = "201", description = "Stored", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveySubmitted")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "403", ref = "OriginNotAllowed")
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @APIResponse(responseCode = "429", ref = "SubmissionLimit")
    @POST
    @Path("/by-token/responses")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submitWithToken(@HeaderParam(PartnerContext.HEADER) String partnerId, @QueryParam("token") String token,
                                    JsonNode body) {
        return Response.status(201).entity(responses.submitWithToken(partner(partnerId), token,
                questions -> SurveySchemas.responseInput(questions, body))).build();
    }

    private static String partner(String partnerId) {
        if (partnerId == null || partnerId.isBlank()) {
            throw new ApiException(401, INVALID_KEY);
        }
        return partnerId;
    }
}

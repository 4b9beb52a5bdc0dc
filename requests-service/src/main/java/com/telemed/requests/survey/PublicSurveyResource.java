package com.telemed.requests.survey;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

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

    @Tag(name = "Surveys")
    @Operation(operationId = "getSurveyDefinition", summary = "A survey's definition (with its disqualification rules)")
    @Parameter(name = "surveyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The definition", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveyEnvelope")))
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @GET
    @Path("/surveys/{surveyId}")
    public SurveyViews.SurveyView survey(@PathParam("surveyId") String surveyId) {
        // Surveys are platform-wide: the partner is only required (401 API Key missing without one).
        partner.partnerId();
        return surveys.get(surveyId);
    }

    @Tag(name = "Surveys")
    @Operation(operationId = "getSurveyResponse", summary = "A survey response submitted under the account")
    @Parameter(name = "responseId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The response", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SurveyResponseEnvelope")))
    @APIResponse(responseCode = "404", description = "Unknown or another partner's", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "notFound", ref = "getSurveyResponse.notFound")}))
    @GET
    @Path("/responses/{responseId}")
    public SurveyViews.ResponseView response(@PathParam("responseId") String responseId) {
        return responses.get(partner.partnerId(), responseId);
    }
}

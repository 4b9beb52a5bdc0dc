package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.validation.Binding;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

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

    @Tag(name = "Surveys")
    @Operation(operationId = "lookupSurvey", summary = "The intake survey of a drug")
    @Parameter(name = "drugId", in = ParameterIn.QUERY, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The survey's id", content = @Content(mediaType = "application/json", schema = @Schema(ref = "LookupSurvey200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "SurveyNotFound")
    @GET
    @Path("/lookup")
    public SurveyViews.Lookup lookup(@QueryParam("drugId") String drugId) {
        // Surveys are platform-wide: the partner is only required (401 API Key missing without one).
        partner.partnerId();
        return surveys.lookup(drugId);
    }

    /** {@code 201 {token, expiresAt}}. */
    @Tag(name = "Surveys")
    @Operation(operationId = "mintSurveyToken", summary = "Mint a short-lived survey token for a returning member (24 hours)")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "MintSurveyTokenBody")))
    @APIResponse(responseCode = "201", description = "The token, to pass to the browser", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MintSurveyToken201")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", description = "Unknown or foreign member, or unknown survey", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "member", ref = "mintSurveyToken.member"),
                @ExampleObject(name = "survey", ref = "mintSurveyToken.survey")}))
    @POST
    @Path("/tokens")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response token(JsonNode body) {
        return Response.status(201).entity(tokens.issue(partner.partnerId(), Binding.bind(SurveySchemas.TOKEN, body, SurveyTokenInput.class))).build();
    }
}

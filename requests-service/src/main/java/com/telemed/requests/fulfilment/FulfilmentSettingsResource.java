package com.telemed.requests.fulfilment;

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

/**
 * {@code PUT}/{@code GET /ops/v1/partners/:id/fulfilment} (operations-api.md, "Partner settings"):
 * {@code {mode: "automatic" | "deferred"}}, answered with the stored mode. A partner never set is
 * {@code automatic}.
 */
@Path("/ops/v1/partners/{partnerId}/fulfilment")
@Produces(MediaType.APPLICATION_JSON)
public class FulfilmentSettingsResource {

    private final FulfilmentModes modes;

    public FulfilmentSettingsResource(FulfilmentModes modes) {
        this.modes = modes;
    }

    @Tag(name = "Fulfilment settings")
    @Operation(operationId = "getFulfilment")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The mode", content = @Content(mediaType = "application/json", schema = @Schema(ref = "FulfilmentMode")))
    @GET
    public FulfilmentViews.Mode get(@PathParam("partnerId") String partnerId) {
        return modes.mode(FulfilmentSchemas.partnerId(partnerId));
    }

    @Tag(name = "Fulfilment settings")
    @Operation(operationId = "putFulfilment", summary = "Automatic or deferred transmission of approvals")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "FulfilmentMode")))
    @APIResponse(responseCode = "200", description = "The mode", content = @Content(mediaType = "application/json", schema = @Schema(ref = "FulfilmentMode")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public FulfilmentViews.Mode put(@PathParam("partnerId") String partnerId, JsonNode body) {
        return modes.set(partnerId, FulfilmentSchemas.modeInput(partnerId, body));
    }
}

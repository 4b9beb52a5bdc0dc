package com.telemed.requests.fulfilment;

import jakarta.ws.rs.POST;
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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The operator's resend of an item whose automatic or scheduled transmission failed
 * ({@code POST /ops/v1/requests/:id/items/:itemId/send-to-pharmacy}, any partner's request): the
 * partner call's checks, holds and answer; history {@code by} is {@code service}.
 */
@Path("/ops/v1/requests/{id}/items/{itemId}")
@Produces(MediaType.APPLICATION_JSON)
public class OperatorSendResource {

    private final Transmissions transmissions;

    public OperatorSendResource(Transmissions transmissions) {
        this.transmissions = transmissions;
    }

    @Tag(name = "Review")
    @Operation(operationId = "operatorSendToPharmacy", summary = "Transmit an approved item now (as the partner call)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "itemId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The outcome (a failed transmission is 200 with success false)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SendOutcome")))
    @APIResponse(responseCode = "400", ref = "DecisionRefused")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/send-to-pharmacy")
    public SendOutcome send(@PathParam("id") String requestId, @PathParam("itemId") String itemId) {
        return transmissions.sendForOperator(requestId, itemId);
    }
}

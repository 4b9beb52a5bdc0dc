package com.telemed.requests.fulfilment;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.POST;
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
 * {@code POST /v1/requests/:requestId/items/:itemId/send-to-pharmacy} (partner-api.md): no body;
 * {@code 200 {success, method, warnings, error?}} whether or not the pharmacy took the order, the
 * contract's {@code 400}s and {@code 404}s otherwise. Shares {@code /v1/requests} with the request
 * resource: Quarkus REST matches the class path first, so both classes declare the same one.
 */
@Path("/v1/requests")
@Produces(MediaType.APPLICATION_JSON)
public class SendToPharmacyResource {

    private final Transmissions transmissions;
    private final PartnerContext partner;

    public SendToPharmacyResource(Transmissions transmissions, PartnerContext partner) {
        this.transmissions = transmissions;
        this.partner = partner;
    }

    @Tag(name = "Requests")
    @Operation(operationId = "sendToPharmacy", summary = "Transmit an approved, untransmitted item", description = "A failed transmission is still `200`, with `success` false and `error` naming the reason (for example `Fulfillment held <code> <reason>`).")
    @Parameter(name = "requestId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "itemId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The transmission's outcome", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SendOutcome")))
    @APIResponse(responseCode = "400", description = "The item cannot be sent", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "notApproved", ref = "sendToPharmacy.notApproved"),
                @ExampleObject(name = "alreadySent", ref = "sendToPharmacy.alreadySent")}))
    @APIResponse(responseCode = "404", description = "Unknown request or line item", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "request", ref = "sendToPharmacy.request"),
                @ExampleObject(name = "item", ref = "sendToPharmacy.item")}))
    @POST
    @Path("/{requestId}/items/{itemId}/send-to-pharmacy")
    public SendOutcome send(@PathParam("requestId") String requestId, @PathParam("itemId") String itemId) {
        return transmissions.sendForPartner(partner.partnerId(), requestId, itemId);
    }
}

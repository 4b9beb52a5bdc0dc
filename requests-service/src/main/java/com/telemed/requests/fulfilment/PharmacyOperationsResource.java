package com.telemed.requests.fulfilment;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.access.Caller;
import com.telemed.common.access.Principal;
import com.telemed.common.validation.Binding;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Optional;
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
 * The pharmacy operations: {@code POST /ops/v1/pharmacy/updates} (operations-api.md, "Pharmacy
 * integration"), a pharmacy's shipping update {@code {pharmacyOrderId, status, trackingNumber?,
 * shipCarrier?, shipped?}}; and {@code GET /ops/v1/pharmacy/failed-transmissions?limit=}, the items
 * an operator has to resend.
 */
@Path("/ops/v1/pharmacy")
@Produces(MediaType.APPLICATION_JSON)
public class PharmacyOperationsResource {

    private final ShippingUpdates updates;
    private final FailedTransmissions failed;
    private final Caller caller;

    public PharmacyOperationsResource(ShippingUpdates updates, FailedTransmissions failed, Caller caller) {
        this.updates = updates;
        this.failed = failed;
        this.caller = caller;
    }

    @Tag(name = "Pharmacy")
    @Operation(operationId = "pharmacyUpdate", summary = "A shipping update (item.shipped the first time shipped, else delivery.update)")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PharmacyUpdateBody")))
    @APIResponse(responseCode = "200", description = "Applied", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PharmacyUpdate200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", description = "Unknown order", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "notFound", ref = "pharmacyUpdate.notFound")}))
    @POST
    @Path("/updates")
    @Consumes(MediaType.APPLICATION_JSON)
    public ShippingUpdates.Applied update(JsonNode body) {
        // A pharmacy updates its own orders only: another pharmacy's is "Order not found", as an unknown one.
        Optional<String> pharmacy = caller.principal().filter(principal -> principal.type() == Principal.Type.PHARMACY)
                .map(Principal::id);
        return updates.apply(Binding.bind(FulfilmentSchemas.SHIPPING_UPDATE, body, ShippingUpdateInput.class), pharmacy);
    }

    /** Newest failure first; {@code limit} 1 to 100, default 50. */
    @Tag(name = "Pharmacy")
    @Operation(operationId = "failedTransmissions", summary = "Approved items whose transmission failed")
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1"))
    @APIResponse(responseCode = "200", description = "The items", content = @Content(mediaType = "application/json", schema = @Schema(ref = "FailedTransmissions200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @GET
    @Path("/failed-transmissions")
    public FailedTransmissions.Page failedTransmissions(@QueryParam("limit") String limit) {
        return failed.list(FulfilmentSchemas.failedLimit(limit));
    }
}

package com.telemed.requests.fulfilment;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.access.Caller;
import com.telemed.common.access.Principal;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
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

    /** Longer than any pharmacy's reference, label or tracking number. */
    static final int TEXT_MAX = 200;
    static final java.util.regex.Pattern LIMIT = java.util.regex.Pattern.compile("^(100|[1-9][0-9]?)$");
    static final String LIMIT_MESSAGE = "limit must be an integer from 1 to 100";

    static final ObjectSchema UPDATE = object()
            .field("pharmacyOrderId", string().min(1).max(TEXT_MAX))
            .field("status", string().min(1).max(TEXT_MAX))
            .field("trackingNumber", string().min(1).max(TEXT_MAX).optional().nullable())
            .field("shipCarrier", string().min(1).max(TEXT_MAX).optional().nullable())
            .field("shipped", bool().optional().nullable());

    static final int DEFAULT_LIMIT = 50;
    static final ObjectSchema LIST = object().field("limit", string().regex(LIMIT, LIMIT_MESSAGE).optional());

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
        return updates.apply(Binding.bind(UPDATE, body, ShippingUpdates.Update.class), pharmacy);
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
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (limit != null) {
            query.put("limit", limit);
        }
        LIST.validate(query);
        return failed.list(limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit));
    }
}

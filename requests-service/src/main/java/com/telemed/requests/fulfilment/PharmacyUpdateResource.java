package com.telemed.requests.fulfilment;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /ops/v1/pharmacy/updates} (operations-api.md, "Pharmacy integration"): a pharmacy's
 * shipping update, {@code {pharmacyOrderId, status, trackingNumber?, shipCarrier?, shipped?}}.
 */
@Path("/ops/v1/pharmacy")
@Produces(MediaType.APPLICATION_JSON)
public class PharmacyUpdateResource {

    /** Longer than any pharmacy's reference, label or tracking number. */
    static final int TEXT_MAX = 200;

    static final ObjectSchema UPDATE = object()
            .field("pharmacyOrderId", string().min(1).max(TEXT_MAX))
            .field("status", string().min(1).max(TEXT_MAX))
            .field("trackingNumber", string().min(1).max(TEXT_MAX).optional().nullable())
            .field("shipCarrier", string().min(1).max(TEXT_MAX).optional().nullable())
            .field("shipped", bool().optional().nullable());

    private final ShippingUpdates updates;

    public PharmacyUpdateResource(ShippingUpdates updates) {
        this.updates = updates;
    }

    @POST
    @Path("/updates")
    @Consumes(MediaType.APPLICATION_JSON)
    public ShippingUpdates.Applied update(JsonNode body) {
        return updates.apply(Binding.bind(UPDATE, body, ShippingUpdates.Update.class));
    }
}

package com.telemed.requests.fulfilment;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

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

    @POST
    @Path("/{requestId}/items/{itemId}/send-to-pharmacy")
    public SendOutcome send(@PathParam("requestId") String requestId, @PathParam("itemId") String itemId) {
        return transmissions.sendForPartner(partner.partnerId(), requestId, itemId);
    }
}

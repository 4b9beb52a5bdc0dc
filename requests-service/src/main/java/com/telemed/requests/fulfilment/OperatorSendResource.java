package com.telemed.requests.fulfilment;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

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

    @POST
    @Path("/send-to-pharmacy")
    public SendOutcome send(@PathParam("id") String requestId, @PathParam("itemId") String itemId) {
        return transmissions.sendForOperator(requestId, itemId);
    }
}

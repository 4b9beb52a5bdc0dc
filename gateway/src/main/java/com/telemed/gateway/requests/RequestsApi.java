package com.telemed.gateway.requests;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * requests-service's internal endpoint the gateway calls (requests-service
 * {@code prescriber.InternalPrescriberResource}). Used only through {@link RequestsServiceClient}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface RequestsApi {

    /** {@code 200 {prescriber}}; {@code 404 Prescriber not found}. */
    @GET
    @Path("/prescribers/{id}")
    PrescriberEnvelope prescriber(@PathParam("id") String prescriberId);
}

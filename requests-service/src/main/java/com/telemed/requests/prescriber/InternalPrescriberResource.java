package com.telemed.requests.prescriber;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Prescriber lookup for other services (messaging resolves prescriber names with it). Under
 * {@code /internal}, which the gateway never routes.
 */
@Path("/internal/prescribers")
@Produces(MediaType.APPLICATION_JSON)
public class InternalPrescriberResource {

    private final PrescriberService prescribers;

    public InternalPrescriberResource(PrescriberService prescribers) {
        this.prescribers = prescribers;
    }

    @GET
    @Path("/{id}")
    public PrescriberEnvelope get(@PathParam("id") String id) {
        return PrescriberEnvelope.of(prescribers.get(id));
    }
}

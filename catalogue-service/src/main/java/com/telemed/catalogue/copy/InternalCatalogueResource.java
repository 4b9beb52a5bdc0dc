package com.telemed.catalogue.copy;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /internal/catalogue/snapshot}: the whole catalogue with its versions, for requests-service's
 * copy (its start, and a copy that fell behind {@code catalogue.events}' retention). Never routed by the
 * gateway; like every internal call, it needs the service proof.
 */
@Path("/internal/catalogue")
@Produces(MediaType.APPLICATION_JSON)
public class InternalCatalogueResource {

    private final CatalogueSnapshots snapshots;

    public InternalCatalogueResource(CatalogueSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    @GET
    @Path("/snapshot")
    public CatalogueSnapshot snapshot() {
        return snapshots.take();
    }
}

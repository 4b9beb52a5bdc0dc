package com.telemed.requests.catalogue;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** catalogue-service's internal reads (catalogue-service/README.md). Used only through {@link CatalogueClient}. */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface CatalogueApi {

    @GET
    @Path("/drugs/{drugId}")
    DrugLookup lookup(@PathParam("drugId") String drugId, @QueryParam("partnerId") String partnerId);

    @GET
    @Path("/catalogue/snapshot")
    CatalogueChanges.Snapshot snapshot();
}

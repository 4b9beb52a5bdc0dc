package com.telemed.requests.catalogue;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** catalogue-service's internal drug lookup (catalogue-service/README.md). Used only through {@link CatalogueClient}. */
@Path("/internal/drugs")
@Produces(MediaType.APPLICATION_JSON)
public interface CatalogueApi {

    @GET
    @Path("/{drugId}")
    DrugLookup lookup(@PathParam("drugId") String drugId, @QueryParam("partnerId") String partnerId);
}

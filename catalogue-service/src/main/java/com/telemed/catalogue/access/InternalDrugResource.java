package com.telemed.catalogue.access;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /internal/drugs/:drugId?partnerId=}: one drug for the services that need it now
 * (requests: drug, SKUs, access, pharmacy). Never routed by the gateway.
 */
@Path("/internal/drugs")
@Produces(MediaType.APPLICATION_JSON)
public class InternalDrugResource {

    private final DrugLookupService lookups;

    public InternalDrugResource(DrugLookupService lookups) {
        this.lookups = lookups;
    }

    @GET
    @Path("/{drugId}")
    public DrugLookupService.DrugLookup get(@PathParam("drugId") String drugId,
                                            @QueryParam("partnerId") String partnerId) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (partnerId != null) {
            query.put("partnerId", partnerId);
        }
        AccessSchemas.LOOKUP.validate(query);
        return lookups.lookup(drugId, partnerId);
    }
}

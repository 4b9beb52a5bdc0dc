package com.telemed.shapefixture.stock;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/** Clean: the neighbour's REST interface. */
@Path("/stock")
public interface StockApi {

    @POST
    String reserve(JsonNode body);
}

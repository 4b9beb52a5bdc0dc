package com.telemed.shapefixture.stock;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Planted: a neighbour's REST interface not named {@code *Api}. */
@Path("/stock/levels")
public interface StockRest {

    @GET
    int level();
}

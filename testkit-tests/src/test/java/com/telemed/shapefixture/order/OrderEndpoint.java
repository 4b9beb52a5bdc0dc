package com.telemed.shapefixture.order;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Planted: a JAX-RS resource not named {@code *Resource}. */
@Path("/orders/count")
public class OrderEndpoint {

    @GET
    public int count() {
        return 0;
    }
}

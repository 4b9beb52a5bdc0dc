package com.telemed.shapefixture.order;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/** Clean: the resource takes the body as a tree and binds it to its input. */
@Path("/orders")
public class OrderResource {

    private final Orders orders;

    public OrderResource(Orders orders) {
        this.orders = orders;
    }

    @POST
    public String create(JsonNode body) {
        return orders.place(new OrderInput(body.path("drugId").asText()));
    }
}

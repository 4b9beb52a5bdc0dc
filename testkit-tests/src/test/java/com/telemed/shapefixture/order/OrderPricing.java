package com.telemed.shapefixture.order;

import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;

/** Planted: a bean below the resource that takes the body as a tree. */
@ApplicationScoped
public class OrderPricing {

    public int price(String partnerId, ObjectNode body) {
        return body.path("quantity").asInt();
    }
}

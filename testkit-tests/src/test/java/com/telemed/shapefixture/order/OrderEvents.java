package com.telemed.shapefixture.order;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;

/** Clean: what {@code order} publishes, used by {@code order} only; an event's payload may be a tree. */
@ApplicationScoped
public class OrderEvents {

    public void placed(String drugId) {
    }

    public void placedAsSent(JsonNode payload) {
    }
}

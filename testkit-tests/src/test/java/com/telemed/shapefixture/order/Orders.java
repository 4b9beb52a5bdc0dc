package com.telemed.shapefixture.order;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.shapefixture.stock.StockClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/** Clean: a bean below the resource takes records; its neighbour's call comes before the transaction. */
@ApplicationScoped
public class Orders {

    private final StockClient stock;
    private final OrderEvents events;

    public Orders(StockClient stock, OrderEvents events) {
        this.stock = stock;
        this.events = events;
    }

    public String reserve(OrderInput input) {
        return stock.reserve(input.drugId());
    }

    @Transactional
    public String place(OrderInput input) {
        events.placed(input.drugId());
        return input.drugId();
    }

    /** A private helper may read a tree (a stored document): only what the bean offers is its shape. */
    private String drugOf(JsonNode document) {
        return document.path("drugId").asText();
    }
}

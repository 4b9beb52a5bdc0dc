package com.telemed.shapefixture.stock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import jakarta.enterprise.context.ApplicationScoped;

/** Clean: the one bean through which the service calls its neighbour; it sends the neighbour's body as is. */
@ApplicationScoped
public class StockClient {

    private final StockApi api;

    public StockClient(StockApi api) {
        this.api = api;
    }

    public String reserve(String drugId) {
        return send(JsonNodeFactory.instance.objectNode().put("drugId", drugId));
    }

    public String send(JsonNode body) {
        return api.reserve(body);
    }
}

package com.telemed.shapefixture.order;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Clean: a form's JSON builder that is no bean. */
public final class OrderForms {

    private OrderForms() {
    }

    public static ObjectNode withDrug(JsonNode form) {
        return JsonNodeFactory.instance.objectNode().put("drugId", form.path("drug").asText());
    }
}

package com.telemed.requests.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.telemed.common.validation.ObjectSchema;

/** Reading console bodies. */
final class Bodies {

    private Bodies() {
    }

    /** An absent body reads as {} (every required field is then reported), as Express's JSON parser gives it. */
    static JsonNode valid(ObjectSchema schema, JsonNode body) {
        JsonNode input = body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
        schema.validate(input);
        return input;
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.textValue();
    }
}

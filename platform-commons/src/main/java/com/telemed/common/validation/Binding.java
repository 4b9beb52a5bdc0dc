package com.telemed.common.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * How every service reads a JSON body: its schema first, on the tree, so that every issue comes in
 * the contract's format in one answer; then the tree bound to the record that carries it, so that
 * no field is read by its string name after validation. A REST resource does both, in this one
 * call, and hands the record to the feature's service.
 *
 * <p>An absent body ({@code null}, or JSON {@code null}) reads as {@code {}}, so every required
 * field is reported, as Express's JSON parser gives it. Binding a validated tree cannot fail unless
 * the record and the schema disagree, a bug the service's tests show: it is an
 * {@link IllegalStateException}, never an issue of the caller's.
 */
public final class Binding {

    /** Only ever binds validated trees: fields the schema lets through and the record does not name are skipped. */
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Binding() {
    }

    /** Validates {@code body} with {@code schema} (throwing every issue at once), then binds it to {@code type}. */
    public static <T> T bind(ObjectSchema schema, JsonNode body, Class<T> type) {
        JsonNode input = orEmpty(body);
        schema.validate(input);
        return bindValidated(input, type);
    }

    /** Binds a tree already validated (with issues of other inputs, e.g. a header, in the same answer). */
    public static <T> T bindValidated(JsonNode validated, Class<T> type) {
        try {
            return MAPPER.treeToValue(orEmpty(validated), type);
        } catch (JsonProcessingException e) {
            // Jackson's message may quote the value: the class name only, no cause (no patient data in logs).
            throw new IllegalStateException("a validated body does not bind to " + type.getSimpleName()
                    + ": the record and its schema disagree (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The body, or {@code {}} when absent. */
    private static JsonNode orEmpty(JsonNode body) {
        return body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
    }
}

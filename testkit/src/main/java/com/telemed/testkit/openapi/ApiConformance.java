package com.telemed.testkit.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Real bodies a service answers, and real webhook payloads it publishes, against the gateway's
 * hand-written OpenAPI documents ({@code gateway/src/main/resources/openapi/}), as JSON Schema
 * 2020-12: a service's test catches a wire record drifting from the document before the
 * end-to-end suite does. Run from the module's directory (Maven's default).
 */
public final class ApiConformance {

    private final JsonNode document;

    private ApiConformance(JsonNode document) {
        this.document = document;
    }

    /** {@code partner.yaml} or {@code operations.yaml}, from the gateway module beside this one. */
    public static ApiConformance of(String source) {
        try (InputStream in = Files.newInputStream(Path.of("..", "gateway", "src", "main", "resources", "openapi", source))) {
            return new ApiConformance(new YAMLMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What is wrong with {@code body} as the {@code status} answer of {@code method template}
     * (e.g. {@code "get", "/v1/requests/{id}", 200}); empty when it conforms. The status must be
     * one the operation documents itself.
     */
    public List<String> response(String method, String template, int status, JsonNode body) {
        JsonNode operation = document.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) {
            return List.of(method + " " + template + " is not documented");
        }
        JsonNode response = resolve(operation.path("responses").path(String.valueOf(status)));
        JsonNode schema = response.path("content").path("application/json").path("schema");
        if (schema.isMissingNode()) {
            return List.of(method + " " + template + " documents no JSON " + status);
        }
        return validate(schema, body);
    }

    /** What is wrong with a webhook payload of {@code event}; empty when it conforms. */
    public List<String> webhook(String event, JsonNode payload) {
        JsonNode webhook = document.path("webhooks").path(event);
        if (webhook.isMissingNode()) {
            return List.of(event + " is not a documented webhook");
        }
        ObjectNode schema = JsonNodeFactory.instance.objectNode()
                .put("$ref", "#/components/schemas/" + webhook.path("x-payload").asText());
        return validate(schema, payload);
    }

    private List<String> validate(JsonNode schema, JsonNode body) {
        ObjectNode standalone = JsonNodeFactory.instance.objectNode();
        standalone.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        standalone.set("components", document.path("components"));
        standalone.putArray("allOf").add(schema);
        Set<ValidationMessage> errors = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(standalone).validate(body);
        return errors.stream().map(error -> error.getMessage() + " in " + body).toList();
    }

    private JsonNode resolve(JsonNode node) {
        return node.has("$ref") ? document.at(node.get("$ref").asText().substring(1)) : node;
    }
}

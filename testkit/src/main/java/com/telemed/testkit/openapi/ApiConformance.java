package com.telemed.testkit.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.telemed.testkit.contract.OpenApiContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Real bodies a service answers, and real webhook payloads it publishes, held to the platform's
 * OpenAPI description by the same validator as the end-to-end contract check
 * ({@link OpenApiContract}): a service's test catches a wire record drifting from the description
 * before the end-to-end suite does. A service's tests cannot start the gateway, so the document is
 * put together from the gateway module's sources the way the gateway serves it: the hand-written
 * part ({@code partner.yaml} or {@code operations.yaml}, the operator's taking the partner's
 * components it does not define), the paths generated from every module's code
 * ({@code generated/*.yaml}, {@link ApiPaths}), and each webhook's {@code x-payload} as the body
 * of its {@code post}. Only the answers every call can get from the edge are left out: a status
 * must be one the operation documents itself. Run from the module's directory (Maven's default).
 */
public final class ApiConformance {

    private static final Path SOURCES = Path.of("..", "gateway", "src", "main", "resources", "openapi");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    private final OpenApiContract contract;

    private ApiConformance(OpenApiContract contract) {
        this.contract = contract;
    }

    /** {@code partner.yaml} or {@code operations.yaml}, from the gateway module beside this one. */
    public static ApiConformance of(String source) {
        try {
            return new ApiConformance(OpenApiContract.parse(JSON.writeValueAsString(document(source))));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What is wrong with {@code body} as the {@code status} answer of {@code method template}
     * (e.g. {@code "get", "/v1/requests/{id}", 200}); empty when it conforms.
     */
    public List<String> response(String method, String template, int status, JsonNode body) {
        return contract.check(method, template, status, "application/json", bytes(body));
    }

    /** What is wrong with a webhook payload of {@code event}; empty when it conforms. */
    public List<String> webhook(String event, JsonNode payload) {
        if (!event.equals(payload.path("event").asText())) {
            return List.of("the payload of " + event + " names the event " + payload.path("event"));
        }
        return contract.checkWebhook(bytes(payload));
    }

    static ObjectNode document(String source) {
        ObjectNode document = read(SOURCES.resolve(source));
        boolean operator = source.equals("operations.yaml");
        if (operator) {
            ObjectNode components = document.with("components");
            read(SOURCES.resolve("partner.yaml")).path("components").fields().forEachRemaining(kind -> {
                ObjectNode own = components.with(kind.getKey());
                kind.getValue().fields().forEachRemaining(component -> {
                    if (!own.has(component.getKey())) {
                        own.set(component.getKey(), component.getValue());
                    }
                });
            });
        }
        ObjectNode paths = document.putObject("paths");
        for (Path generated : generated()) {
            read(generated).path("paths").fields().forEachRemaining(path -> {
                if (path.getKey().startsWith("/ops/") == operator) {
                    // Not paths.with(key): Jackson reads a key starting with '/' as a JSON Pointer.
                    ObjectNode item = paths.has(path.getKey()) ? (ObjectNode) paths.get(path.getKey()) : paths.putObject(path.getKey());
                    item.setAll((ObjectNode) path.getValue());
                }
            });
        }
        if (document.get("webhooks") instanceof ObjectNode webhooks) {
            List<String> events = new ArrayList<>();
            webhooks.fieldNames().forEachRemaining(events::add);
            for (String event : events) {
                ObjectNode post = JsonNodeFactory.instance.objectNode();
                post.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                        .putObject("schema").put("$ref", "#/components/schemas/" + webhooks.path(event).path("x-payload").asText());
                post.putObject("responses").putObject("2XX").put("description", "Accepted");
                webhooks.set(event, JsonNodeFactory.instance.objectNode().set("post", post));
            }
        }
        return document;
    }

    private static List<Path> generated() {
        try (Stream<Path> files = Files.list(SOURCES.resolve("generated"))) {
            return files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(JsonNode body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

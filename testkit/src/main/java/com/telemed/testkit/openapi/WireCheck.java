package com.telemed.testkit.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.response.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a service's {@code WireConformanceTest} gathers: each real answer and each published event's
 * webhook payload held to the description ({@link ApiConformance}), the problems kept so that one
 * run reports all of them. The test ends with {@code assertEquals(List.of(), wire.problems())}.
 */
public final class WireCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApiConformance description;
    private final List<String> problems = new ArrayList<>();

    private WireCheck(ApiConformance description) {
        this.description = description;
    }

    /** Against {@code partner.yaml} or {@code operations.yaml} (with the generated paths). */
    public static WireCheck against(String source) {
        return new WireCheck(ApiConformance.of(source));
    }

    /**
     * Holds {@code response}, which must have {@code status}, to the answer {@code method template}
     * documents for it (e.g. {@code "get", "/v1/requests/{id}", 200}); returns its body.
     */
    public JsonNode answer(String method, String template, int status, Response response) {
        if (response.statusCode() != status) {
            throw new AssertionError(method + " " + template + " answered " + response.statusCode() + ", expected " + status
                    + ": " + response.asString());
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.asByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        problems.addAll(description.response(method, template, status, body));
        return body;
    }

    /** Holds the webhook payload of each event envelope ({@code type}, {@code webhook}) read from a topic. */
    public void events(List<JsonNode> envelopes) {
        for (JsonNode envelope : envelopes) {
            problems.addAll(description.webhook(envelope.path("type").asText(), envelope.path("webhook")));
        }
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }
}

package com.telemed.bench.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The calls a benchmark makes to set itself up, through the gateway: as the operator
 * ({@code x-ops-key}) or as a partner ({@code x-api-key}), JSON in and out, failing on any status
 * but the expected one (a broken setup fails there, not as a column of errors in the figures).
 */
public final class GatewayApi {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private final URI gateway;
    private final String opsKey;

    public GatewayApi(URI gateway, String opsKey) {
        this.gateway = gateway;
        this.opsKey = opsKey;
    }

    /** A new partner: {@code {partner: {id, ...}, apiKey}}. */
    public JsonNode partner(String name) throws Exception {
        return send("POST", "/ops/v1/partners", JSON.writeValueAsString(Map.of("name", name)), 201);
    }

    /** As the operator; {@code body} null for none. */
    public JsonNode send(String method, String path, String body, int expected) throws Exception {
        return call(method, path, body, expected, "x-ops-key", opsKey);
    }

    /** As the partner whose key this is; {@code body} null for none. */
    public JsonNode as(String apiKey, String method, String path, String body, int expected) throws Exception {
        return call(method, path, body, expected, "x-api-key", apiKey);
    }

    private JsonNode call(String method, String path, String body, int expected, String header, String value)
            throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(gateway.resolve(path)).timeout(Duration.ofSeconds(15))
                .header(header, value);
        if (body != null) {
            builder.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }
}

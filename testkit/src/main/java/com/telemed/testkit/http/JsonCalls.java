package com.telemed.testkit.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * JSON calls to a running platform as the end-to-end tests make them from many threads: HTTP/1.1,
 * a 3 s connect timeout and a per-call timeout. A body is sent as JSON (a string as it is, anything
 * else written by Jackson); the answer keeps its status and its body as JSON (empty: a null node;
 * not JSON: a text node, a definitive answer all the same). A connection failure or timeout is the
 * {@link IOException} it was, never an answer.
 */
public final class JsonCalls {

    private static final ObjectMapper JSON = new ObjectMapper();

    public record Answer(int status, JsonNode json) {
        /** The {@code error} field: its text, or the issue array as JSON. */
        public String error() {
            return json.path("error").isTextual() ? json.path("error").asText() : json.path("error").toString();
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
    private final Duration timeout;

    public JsonCalls(Duration timeout) {
        this.timeout = timeout;
    }

    public Answer call(URI base, String method, String path, Map<String, String> headers, Object body)
            throws IOException, InterruptedException {
        URI url = base.resolve(path);
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout);
        headers.forEach(request::header);
        Map<String, String> sentHeaders = new LinkedHashMap<>();
        headers.forEach((name, value) -> sentHeaders.put(name.toLowerCase(Locale.ROOT), value));
        byte[] sent = new byte[0];
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            sent = (body instanceof String text ? text : JSON.writeValueAsString(body)).getBytes(StandardCharsets.UTF_8);
            sentHeaders.put("content-type", "application/json");
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofByteArray(sent));
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        byte[] bytes = response.body();
        // The contract check and the log scan's record hear of it (a drift throws here, in the call that met it).
        Exchanges.answered(new Exchange(Exchange.Client.JSON_CALLS, Exchange.originOf(url), method,
                url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()), sentHeaders, sent,
                response.statusCode(), response.headers().firstValue("content-type").orElse(null), bytes));
        JsonNode json;
        try {
            json = bytes.length == 0 ? JSON.nullNode() : JSON.readTree(bytes);
        } catch (IOException notJson) {
            json = JSON.getNodeFactory().textNode(new String(bytes, StandardCharsets.UTF_8));
        }
        return new Answer(response.statusCode(), json);
    }

    /** The answer, after asserting its status (the body is the message when it differs). */
    public static Answer expect(int status, Answer answer) {
        assertEquals(status, answer.status(), answer.json().toString());
        return answer;
    }
}

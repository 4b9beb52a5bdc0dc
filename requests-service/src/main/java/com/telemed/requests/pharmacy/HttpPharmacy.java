package com.telemed.requests.pharmacy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * A pharmacy integration over HTTP (requests-service README, "Pharmacy order"): posts the order as
 * JSON to the configured endpoint with {@code Idempotency-Key: <orderReference>} and waits at most
 * the configured timeout. {@code 2xx {"orderId"}} is accepted; a 4xx other than 408 and 429 is a
 * rejection with the body's {@code reason}; anything else (timeout, connection failure, 408, 429,
 * 5xx, a 2xx without an order id) leaves the order unknown: unavailable. Never retried here: a
 * repeat is an operator's or the dispatcher's decision, and the idempotency key makes it safe.
 */
public final class HttpPharmacy implements PharmacyAdapter {

    /** A pharmacy's reason is kept to this many characters in answers and records. */
    static final int REASON_MAX = 300;

    private final URI endpoint;
    private final Duration timeout;
    private final HttpClient client;
    private final ObjectMapper json;

    public HttpPharmacy(URI endpoint, Duration timeout, HttpClient client, ObjectMapper json) {
        this.endpoint = endpoint;
        this.timeout = timeout;
        this.client = client;
        this.json = json;
    }

    @Override
    public PharmacyAnswer transmit(PharmacyOrder order) {
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(endpoint)
                    .timeout(timeout)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .header("Idempotency-Key", order.orderReference().toString())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(order)))
                    .build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a pharmacy order could not be written as JSON", e);
        }
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            return new PharmacyAnswer.Unavailable("no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            return new PharmacyAnswer.Unavailable("connection failed (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PharmacyAnswer.Unavailable("interrupted");
        }
        int status = response.statusCode();
        JsonNode body = body(response.body());
        if (status >= 200 && status < 300) {
            String orderId = body.path("orderId").asText("");
            return orderId.isBlank() ? new PharmacyAnswer.Unavailable("HTTP " + status + " without an orderId")
                    : new PharmacyAnswer.Accepted(clip(orderId));
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            String reason = body.path("reason").asText("");
            return new PharmacyAnswer.Rejected(reason.isBlank() ? "HTTP " + status : clip(reason));
        }
        return new PharmacyAnswer.Unavailable("HTTP " + status);
    }

    private JsonNode body(byte[] bytes) {
        try {
            JsonNode node = bytes.length == 0 ? null : json.readTree(bytes);
            return node == null ? json.createObjectNode() : node;
        } catch (IOException notJson) {
            return json.createObjectNode();
        }
    }

    private static String clip(String text) {
        return text.length() <= REASON_MAX ? text : text.substring(0, REASON_MAX);
    }
}

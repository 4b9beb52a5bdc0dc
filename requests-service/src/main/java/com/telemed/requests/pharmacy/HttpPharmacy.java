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
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A pharmacy integration over HTTP (requests-service README, "Pharmacies and the order"): posts the
 * order as JSON to the configured endpoint with {@code Idempotency-Key: <orderReference>}, signed
 * with the pharmacy's own secret ({@link OrderSignature}: {@code X-Order-Timestamp},
 * {@code X-Order-Signature}), and waits at most the configured timeout for the whole answer, of
 * which it reads at most {@code maxAnswerBytes}. {@code 2xx {"orderId"}} is accepted; a 4xx other
 * than 408 and 429 is a rejection with the body's {@code reason}; anything else (timeout,
 * connection failure, an answer over the bound, 408, 429, 5xx, a 2xx without an order id) leaves the
 * order unknown: unavailable. Never retried here: a repeat is an operator's or the dispatcher's
 * decision, and the idempotency key makes it safe.
 */
public final class HttpPharmacy implements PharmacyAdapter {

    /** A pharmacy's reason is kept to this many characters in answers and records. */
    static final int REASON_MAX = 300;

    private final URI endpoint;
    private final OrderSignature signature;
    private final Duration timeout;
    private final HttpResponse.BodyHandler<byte[]> answers;
    private final HttpClient client;
    private final ObjectMapper json;
    private final Clock clock;

    public HttpPharmacy(URI endpoint, OrderSignature signature, Duration timeout, int maxAnswerBytes, HttpClient client,
                        ObjectMapper json, Clock clock) {
        this.endpoint = endpoint;
        this.signature = signature;
        this.timeout = timeout;
        this.answers = BoundedAnswer.atMost(maxAnswerBytes);
        this.client = client;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public PharmacyAnswer transmit(PharmacyOrder order) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(order);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a pharmacy order could not be written as JSON", e);
        }
        String timestamp = OrderSignature.timestamp(clock.instant());
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("Idempotency-Key", order.orderReference().toString())
                .header(OrderSignature.TIMESTAMP_HEADER, timestamp)
                .header(OrderSignature.SIGNATURE_HEADER, signature.sign(timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<byte[]> response;
        // The request's timeout ends at the answer's head; the deadline here covers its body too,
        // so a pharmacy that trickles its answer cannot hold a transmission past its claim's lease.
        CompletableFuture<HttpResponse<byte[]>> sent = client.sendAsync(request, answers);
        try {
            response = sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            sent.cancel(true);
            return noAnswer();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                return noAnswer();
            }
            if (cause instanceof BoundedAnswer.TooLarge tooLarge) {
                return new PharmacyAnswer.Unavailable(tooLarge.getMessage());
            }
            if (cause instanceof IOException) {
                return new PharmacyAnswer.Unavailable("connection failed (" + cause.getClass().getSimpleName() + ")");
            }
            throw new IllegalStateException("a pharmacy order could not be sent", cause);
        } catch (InterruptedException e) {
            sent.cancel(true);
            Thread.currentThread().interrupt();
            return new PharmacyAnswer.Unavailable("interrupted");
        }
        int status = response.statusCode();
        JsonNode answer = body(response.body());
        if (status >= 200 && status < 300) {
            String orderId = answer.path("orderId").asText("");
            return orderId.isBlank() ? new PharmacyAnswer.Unavailable("HTTP " + status + " without an orderId")
                    : new PharmacyAnswer.Accepted(clip(orderId));
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            String reason = answer.path("reason").asText("");
            return new PharmacyAnswer.Rejected(reason.isBlank() ? "HTTP " + status : clip(reason));
        }
        return new PharmacyAnswer.Unavailable("HTTP " + status);
    }

    private PharmacyAnswer noAnswer() {
        return new PharmacyAnswer.Unavailable("no answer within " + timeout.toMillis() + " ms");
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

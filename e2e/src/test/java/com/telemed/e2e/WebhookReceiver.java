package com.telemed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.awaitility.Awaitility;

/**
 * A partner's webhook endpoint: a real HTTP server on loopback that records every POST (arrival
 * time, headers, raw body) and answers with the status {@link Answer} picks for it. The default
 * executor handles one exchange at a time, so the attempt count is exact.
 */
final class WebhookReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One POST as it arrived; {@code arrivedNanos} is {@link System#nanoTime()} on arrival. */
    record Received(long arrivedNanos, Map<String, String> headers, byte[] body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String event() {
            return json().path("event").asText();
        }
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    /** The status to answer a POST with; {@code attempt} counts the POSTs with its X-Webhook-Id so far, this one included. */
    @FunctionalInterface
    interface Answer {
        int status(Received post, int attempt);
    }

    WebhookReceiver(Answer answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hooks", exchange -> {
            long arrived = System.nanoTime();
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            Received post = new Received(arrived, headers, exchange.getRequestBody().readAllBytes());
            received.add(post);
            String id = post.headers().get("x-webhook-id");
            int attempt = (int) received.stream().filter(earlier -> id != null && id.equals(earlier.headers().get("x-webhook-id"))).count();
            exchange.sendResponseHeaders(answer.status(post, attempt), -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    /** The POSTs of one event (the {@code event} field of the body), in arrival order. */
    List<Received> ofEvent(String event) {
        return received.stream().filter(post -> event.equals(post.event())).toList();
    }

    /** Waits until at least {@code count} POSTs of the event arrived; returns them, or fails after {@code timeout}. */
    List<Received> await(String event, int count, Duration timeout) throws InterruptedException {
        return Awaitility.await(event + ": " + count + " POSTs").atMost(timeout).pollInterval(Duration.ofMillis(20))
                .until(() -> ofEvent(event), posts -> posts.size() >= count);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * The contract's headers, with the signature recomputed independently: HMAC-SHA256 over
     * "timestamp.body", keyed by the secret's UTF-8 bytes.
     */
    static void assertSigned(Received delivery, String secret) throws Exception {
        assertSigned(delivery, secret, Instant.now());
    }

    /**
     * As {@link #assertSigned(Received, String)}, with the timestamp checked against
     * {@code receivedAt}, the receiver's clock when the POST arrived (the contract's five minutes):
     * for a test that checks its deliveries minutes after they came.
     */
    static void assertSigned(Received delivery, String secret, Instant receivedAt) throws Exception {
        Map<String, String> headers = delivery.headers();
        assertEquals("application/json", headers.get("content-type"));
        assertEquals("Service-Webhook/1.0", headers.get("user-agent"));
        String timestamp = headers.get("x-webhook-timestamp");
        assertTrue(timestamp.matches("\\d{10}"), timestamp);
        assertTrue(Math.abs(receivedAt.getEpochSecond() - Long.parseLong(timestamp)) < 300,
                "X-Webhook-Timestamp " + timestamp + " more than 300 s from its arrival at " + receivedAt);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        String expected = "sha256=" + HexFormat.of().formatHex(mac.doFinal(delivery.body()));
        assertTrue(MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                headers.get("x-webhook-signature").getBytes(StandardCharsets.UTF_8)), "signature");
        assertTrue(headers.get("x-webhook-id") != null && !headers.get("x-webhook-id").isBlank());
    }
}

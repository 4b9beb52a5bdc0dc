package com.telemed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import com.telemed.testkit.contract.ContractCheck;
import com.telemed.testkit.logscan.SensitiveValues;
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
 *
 * <p>Every body is held to the {@code webhooks} of the platform's partner document
 * ({@link ContractCheck}): a drift fails the test that reads what arrived ({@link #received},
 * {@link #ofEvent}, {@link #await}) or, at the latest, closes the receiver.
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
    private final List<String> drifts = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final String url;

    /** The status to answer a POST with; {@code attempt} counts the POSTs with its X-Webhook-Id so far, this one included. */
    @FunctionalInterface
    interface Answer {
        int status(Received post, int attempt);
    }

    WebhookReceiver(Answer answer) throws IOException {
        this(answer, true);
    }

    /**
     * A receiver for events a test writes onto Kafka itself (testkit {@code kafka.CareEvents}: the
     * fewest fields a delivery needs, not a payload the platform makes): their bodies are not held
     * to the partner document.
     */
    static WebhookReceiver ofSyntheticEvents(Answer answer) throws IOException {
        return new WebhookReceiver(answer, false);
    }

    private WebhookReceiver(Answer answer, boolean heldToContract) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hooks", exchange -> {
            long arrived = System.nanoTime();
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            Received post = new Received(arrived, headers, exchange.getRequestBody().readAllBytes());
            received.add(post);
            // The links a payload carries (a booking link's token) are for the partner alone: never in a log.
            SensitiveValues.instance().webhookBody(post.body());
            if (heldToContract) {
                try {
                    drifts.addAll(ContractCheck.instance().webhookViolations(post.body()));
                } catch (RuntimeException unreadable) {
                    drifts.add("webhook body could not be checked: " + unreadable);
                }
            }
            String id = post.headers().get("x-webhook-id");
            int attempt = (int) received.stream().filter(earlier -> id != null && id.equals(earlier.headers().get("x-webhook-id"))).count();
            exchange.sendResponseHeaders(answer.status(post, attempt), -1);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    String url() {
        return url;
    }

    List<Received> received() {
        assertNoDrift();
        return List.copyOf(received);
    }

    /** The POSTs of one event (the {@code event} field of the body), in arrival order. */
    List<Received> ofEvent(String event) {
        assertNoDrift();
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
        assertNoDrift();
    }

    /** Fails when a body that arrived is not as the partner document's {@code webhooks} describe it. */
    void assertNoDrift() {
        if (!drifts.isEmpty()) {
            throw new AssertionError("Contract drift: webhook bodies received at " + url() + " against the partner document "
                    + ContractCheck.PARTNER_DOCUMENT + ":\n  - " + String.join("\n  - ", drifts));
        }
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

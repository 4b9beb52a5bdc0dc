package com.telemed.requests.pharmacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #38, the adapter on its own against a loopback server (no Quarkus): an answer is read to
 * at most {@code maxAnswerBytes} whatever the pharmacy sends, within the timeout for the whole
 * answer, and the signature is the documented one.
 */
class HttpPharmacyAnswerTest {

    private static final int MAX = 64 * 1024;
    private static final int TEN_MB = 10 * 1024 * 1024;

    private HttpServer server;
    private ExecutorService handlers;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
            handlers.shutdownNow();
        }
    }

    private URI serve(HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/orders", handler);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/orders");
    }

    private static PharmacyAnswer transmit(URI endpoint, Duration timeout) {
        return new HttpPharmacy(endpoint, new OrderSignature(PharmacyConfig.DEVELOPMENT_SECRET), timeout, MAX,
                HttpClient.newHttpClient(), new ObjectMapper(), Clock.systemUTC()).transmit(order());
    }

    private static PharmacyOrder order() {
        return new PharmacyOrder(UUID.randomUUID(), UUID.randomUUID(), "integration_a", "pharmacy-1", null, null, null);
    }

    /** Fed a 10 MB answer a buffer at a time, the reader takes at most the bound and one buffer, then cancels. */
    @Test
    void aTenMegabyteStreamIsCutAtTheBound() {
        int bufferSize = 16 * 1024;
        AtomicLong delivered = new AtomicLong();
        AtomicBoolean cancelled = new AtomicBoolean();
        HttpResponse.BodySubscriber<byte[]> reader = BoundedAnswer.atMost(MAX).apply(info(Map.of()));
        reader.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                for (long i = 0; i < n && !cancelled.get() && delivered.get() < TEN_MB; i++) {
                    delivered.addAndGet(bufferSize);
                    reader.onNext(List.of(ByteBuffer.allocate(bufferSize)));
                }
                if (!cancelled.get() && delivered.get() >= TEN_MB) {
                    reader.onComplete();
                }
            }

            @Override
            public void cancel() {
                cancelled.set(true);
            }
        });
        assertTrue(cancelled.get(), "the reader cancelled");
        assertEquals(MAX + bufferSize, delivered.get());
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> reader.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS));
        assertInstanceOf(BoundedAnswer.TooLarge.class, failure.getCause());
        assertEquals("answer larger than 65536 bytes", failure.getCause().getMessage());
    }

    @Test
    void aDeclaredLengthOverTheBoundIsRefusedBeforeAnyByteAndTheBoundItselfIsRead() throws Exception {
        AtomicBoolean cancelled = new AtomicBoolean();
        AtomicLong requested = new AtomicLong();
        HttpResponse.BodySubscriber<byte[]> declared = BoundedAnswer.atMost(MAX)
                .apply(info(Map.of("Content-Length", List.of(Integer.toString(TEN_MB)))));
        declared.onSubscribe(subscription(requested, cancelled));
        assertTrue(cancelled.get());
        assertEquals(0, requested.get());
        assertTrue(declared.getBody().toCompletableFuture().isCompletedExceptionally());

        HttpResponse.BodySubscriber<byte[]> exact = BoundedAnswer.atMost(MAX).apply(info(Map.of()));
        exact.onSubscribe(subscription(new AtomicLong(), new AtomicBoolean()));
        exact.onNext(List.of(ByteBuffer.allocate(MAX - 1), ByteBuffer.allocate(1)));
        exact.onComplete();
        assertEquals(MAX, exact.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS).length);
    }

    /** Through the real client: a chunked 10 MB acceptance (no Content-Length) is no acceptance. */
    @Test
    void aChunkedTenMegabyteAnswerIsUnavailable() throws Exception {
        URI endpoint = serve(exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(201, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("{\"orderId\": \"PH-huge\", \"note\": \"".getBytes(StandardCharsets.UTF_8));
                byte[] chunk = "x".repeat(8192).getBytes(StandardCharsets.UTF_8);
                for (int written = 0; written < TEN_MB; written += chunk.length) {
                    out.write(chunk);
                }
                out.write("\"}".getBytes(StandardCharsets.UTF_8));
            } catch (IOException dropped) {
                // the adapter hung up: expected
            }
        });
        assertEquals(new PharmacyAnswer.Unavailable("answer larger than 65536 bytes"), transmit(endpoint, Duration.ofSeconds(10)));
    }

    /**
     * The timeout covers the whole answer: java.net.http's request timeout ends with the answer's
     * head, and a pharmacy trickling its body held the transmission (and its claim) for as long as
     * it liked.
     */
    @Test
    void anAnswerTrickledPastTheTimeoutIsUnavailable() throws Exception {
        AtomicBoolean headSent = new AtomicBoolean();
        URI endpoint = serve(exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(201, 0);
            headSent.set(true);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("{\"orderId\": \"PH-slow\"".getBytes(StandardCharsets.UTF_8));
                out.flush();
                for (int i = 0; i < 300; i++) {
                    Thread.sleep(200);
                    out.write(' ');
                    out.flush();
                }
                out.write('}');
            } catch (IOException | InterruptedException dropped) {
                // the adapter hung up: expected
            }
        });
        long started = System.nanoTime();
        assertEquals(new PharmacyAnswer.Unavailable("no answer within 1500 ms"), transmit(endpoint, Duration.ofMillis(1500)));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(headSent.get(), "the answer had begun: the body was being waited for");
        // Generous for a loaded two-core machine; the pharmacy takes 60 s, which is what the adapter waited before.
        assertTrue(tookMs < 20_000, "took " + tookMs + " ms of the pharmacy's 60 s");
    }

    /** The documented scheme, checked against an HMAC computed elsewhere (Python's hmac module). */
    @Test
    void theSignatureIsHmacSha256OfTimestampDotBody() {
        OrderSignature signature = new OrderSignature(PharmacyConfig.DEVELOPMENT_SECRET);
        assertEquals("1700000000", OrderSignature.timestamp(Instant.ofEpochSecond(1_700_000_000L, 999_000_000)));
        assertEquals("sha256=11643d6b380e9fc11d4254507f582a14156509bbd8cb2bea6da02beae2856003",
                signature.sign("1700000000", "{\"orderReference\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
    }

    private static Flow.Subscription subscription(AtomicLong requested, AtomicBoolean cancelled) {
        return new Flow.Subscription() {
            @Override
            public void request(long n) {
                requested.addAndGet(n);
            }

            @Override
            public void cancel() {
                cancelled.set(true);
            }
        };
    }

    private static HttpResponse.ResponseInfo info(Map<String, List<String>> headers) {
        return new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return 201;
            }

            @Override
            public HttpHeaders headers() {
                return HttpHeaders.of(headers, (name, value) -> true);
            }

            @Override
            public HttpClient.Version version() {
                return HttpClient.Version.HTTP_1_1;
            }
        };
    }
}

package com.telemed.bench.fulfilment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.bench.support.Results;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The ceiling: orders posted straight to the loopback pharmacy, no platform in between. The client
 * is built and used as requests-service's {@code pharmacy.Pharmacies} and {@code HttpPharmacy} build and
 * use theirs: one JDK {@link HttpClient} (default version, connect timeout 10 s), each order a
 * {@code POST} with {@code Content-Type}, {@code Accept} and {@code Idempotency-Key: <orderReference>},
 * a 10 s timeout, the answer read as bytes and its {@code orderId} parsed. The bodies are the first
 * real order the pharmacy received from requests-service, each with a new {@code orderReference}
 * (and key), so the same shape and size. {@code clients} threads share the client, each posting its
 * next order when the last is answered: with one, one connection kept alive.
 */
final class PharmacyCeiling {

    record Result(int orders, long failed, String firstFailure, double seconds, Histogram latencies) {
        double perSecond() {
            return orders / seconds;
        }

        /** Kept as {@code <prefix>.perSecond}, {@code .seconds}, {@code .p50Ms}, {@code .p99Ms} (each order) and {@code .failed}. */
        void record(Results results, String prefix, String label) {
            results.record(prefix + ".perSecond", perSecond(), "orders/s", label);
            results.record(prefix + ".seconds", seconds, "s", label + ", all orders");
            results.record(prefix + ".p50Ms", latencies.getValueAtPercentile(50) / 1000.0, "ms", label + ", each order p50");
            results.record(prefix + ".p99Ms", latencies.getValueAtPercentile(99) / 1000.0, "ms", label + ", each order p99");
            results.record(prefix + ".failed", failed, "orders", label + ", failed");
        }

        String line(String name) {
            return String.format("%-44s %6.2f s  %6.0f orders/s  (%d orders, %d failed%s; each p50 %.2f ms, p99 %.2f ms)",
                    name, seconds, perSecond(), orders, failed, failed == 0 ? "" : ", first: " + firstFailure,
                    latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI endpoint;
    private final LoopbackPharmacy.Sample sample;

    PharmacyCeiling(URI endpoint, LoopbackPharmacy.Sample sample) {
        this.endpoint = endpoint;
        this.sample = sample;
    }

    /** A client as requests-service builds its pharmacies' one. */
    static HttpClient client() {
        return HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    int bodyBytes() {
        return sample.body().length;
    }

    /** {@code orders} orders of the sample's shape, each with an orderReference of its own. */
    List<Order> orders(int orders) {
        String template = new String(sample.body(), StandardCharsets.UTF_8);
        List<Order> made = new ArrayList<>(orders);
        for (int i = 0; i < orders; i++) {
            String reference = UUID.randomUUID().toString();
            made.add(new Order(reference, template.replace(sample.orderReference(), reference).getBytes(StandardCharsets.UTF_8)));
        }
        return made;
    }

    record Order(String reference, byte[] body) {
    }

    Result run(HttpClient client, List<Order> orders, int clients) throws Exception {
        Histogram latencies = new Histogram(60_000_000L, 3);
        AtomicInteger next = new AtomicInteger();
        AtomicLong failed = new AtomicLong();
        String[] firstFailure = new String[1];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long started = System.nanoTime();
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                work.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < orders.size(); i = next.getAndIncrement()) {
                        long sent = System.nanoTime();
                        String failure = post(client, orders.get(i));
                        synchronized (latencies) {
                            latencies.recordValue(Math.min(60_000_000L, Math.max(1, (System.nanoTime() - sent) / 1000)));
                        }
                        if (failure != null && failed.incrementAndGet() == 1) {
                            firstFailure[0] = failure;
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> each : work) {
                each.get(300, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(orders.size(), failed.get(), firstFailure[0], (System.nanoTime() - started) / 1e9, latencies);
    }

    /** One order, as HttpPharmacy posts it; null when accepted with an orderId, else what went wrong. */
    private String post(HttpClient client, Order order) {
        try {
            HttpRequest request = HttpRequest.newBuilder(endpoint)
                    .timeout(TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .header("Idempotency-Key", order.reference())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(order.body()))
                    .build();
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() / 100 != 2) {
                return "HTTP " + response.statusCode();
            }
            String orderId = JSON.readTree(response.body()).path("orderId").asText("");
            return orderId.isBlank() ? "no orderId" : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}

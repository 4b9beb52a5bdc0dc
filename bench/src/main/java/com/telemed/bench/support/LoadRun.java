package com.telemed.bench.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop load from this JVM, when wrk is not installed (or each client must send a call of
 * its own): {@code concurrency} clients each sending the next call when the last answered, for a
 * fixed time.
 */
public final class LoadRun {

    /**
     * {@code failures}: the failed calls by what they were, {@code HTTP <status> <body, shortened>} or
     * the exception's class, most frequent first.
     */
    public record Result(String name, long calls, long errors, double seconds, Histogram latencies,
                         Map<String, Long> failures) {
        public double perSecond() {
            return calls / seconds;
        }

        public double p50Ms() {
            return latencies.getValueAtPercentile(50) / 1000.0;
        }

        public double p99Ms() {
            return latencies.getValueAtPercentile(99) / 1000.0;
        }

        public String line() {
            return String.format("%-28s %9.0f req/s   p50 %6.2f ms   p99 %6.2f ms   (%d calls, %d errors)",
                    name, perSecond(), p50Ms(), p99Ms(), calls, errors);
        }

        /** The failures as {@code count x what}, separated by {@code "; "}; {@code none} without any. */
        public String failuresText() {
            if (failures.isEmpty()) {
                return "none";
            }
            List<String> parts = new ArrayList<>();
            failures.forEach((what, count) -> parts.add(count + " x " + what));
            return String.join("; ", parts);
        }
    }

    /** Longest part of an error body kept in {@link Result#failures()}. */
    private static final int BODY_CHARS = 120;

    private LoadRun() {
    }

    /** GETs; anything but 200 is an error. */
    public static Result run(String name, URI uri, String[] headers, int concurrency, Duration duration) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).headers(headers).timeout(Duration.ofSeconds(10)).GET().build();
        return run(name, client -> request, status -> status == 200, concurrency, duration);
    }

    /** POSTs of a JSON body; anything but 2xx is an error. */
    public static Result post(String name, URI uri, String[] headers, String body, int concurrency, Duration duration)
            throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).headers(headers).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return run(name, client -> request, status -> status / 100 == 2, concurrency, duration);
    }

    /**
     * Client {@code i} (0 to {@code concurrency - 1}) sends {@code requestOf.apply(i)} again and
     * again, e.g. each to a resource of its own; anything but {@code expected} is an error.
     */
    public static Result each(String name, IntFunction<HttpRequest> requestOf, int expected, int concurrency,
                              Duration duration) throws InterruptedException {
        return run(name, requestOf, status -> status == expected, concurrency, duration);
    }

    private static Result run(String name, IntFunction<HttpRequest> requestOf, IntPredicate ok, int concurrency,
                              Duration duration) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        Recorder recorder = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        long began = System.nanoTime();
        long end = began + duration.toNanos();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            HttpRequest request = requestOf.apply(i);
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    try {
                        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        if (!ok.test(response.statusCode())) {
                            errors.incrementAndGet();
                            String body = new String(response.body(), StandardCharsets.UTF_8).strip();
                            failures.computeIfAbsent("HTTP " + response.statusCode() + " "
                                    + (body.length() > BODY_CHARS ? body.substring(0, BODY_CHARS) + "..." : body),
                                    k -> new LongAdder()).increment();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        failures.computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder()).increment();
                    }
                    recorder.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                }
            });
            thread.start();
            clients.add(thread);
        }
        for (Thread thread : clients) {
            thread.join();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        Histogram histogram = recorder.getIntervalHistogram();
        return new Result(name, histogram.getTotalCount(), errors.get(), seconds, histogram, sorted(failures));
    }

    /** Most frequent first. */
    public static Map<String, Long> sorted(Map<String, LongAdder> counts) {
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue().sum()));
        return sorted;
    }
}

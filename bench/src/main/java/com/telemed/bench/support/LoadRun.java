package com.telemed.bench.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop load from this JVM, when wrk is not installed: {@code concurrency} clients each
 * sending the next call when the last answered, for a fixed time.
 */
public final class LoadRun {

    public record Result(String name, long calls, long errors, double seconds, Histogram latencies) {
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
    }

    private LoadRun() {
    }

    /** GETs; anything but 200 is an error. */
    public static Result run(String name, URI uri, String[] headers, int concurrency, Duration duration) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).headers(headers).timeout(Duration.ofSeconds(10)).GET().build();
        return run(name, request, status -> status == 200, HttpResponse.BodyHandlers.ofByteArray(), concurrency, duration);
    }

    /** POSTs of a JSON body; anything but 2xx is an error. */
    public static Result post(String name, URI uri, String[] headers, String body, int concurrency, Duration duration)
            throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).headers(headers).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return run(name, request, status -> status / 100 == 2, HttpResponse.BodyHandlers.discarding(), concurrency, duration);
    }

    private static Result run(String name, HttpRequest request, IntPredicate ok, HttpResponse.BodyHandler<?> body,
                              int concurrency, Duration duration) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        Recorder recorder = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        long began = System.nanoTime();
        long end = began + duration.toNanos();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    try {
                        if (!ok.test(client.send(request, body).statusCode())) {
                            errors.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
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
        return new Result(name, histogram.getTotalCount(), errors.get(), seconds, histogram);
    }
}

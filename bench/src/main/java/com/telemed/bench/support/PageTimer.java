package com.telemed.bench.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * Times a list page by sequential calls, one client, after a warm-up, capped in time: what the
 * list benchmarks measure for each query, through the gateway and direct to the service.
 */
public final class PageTimer {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** Where a call goes: through the gateway with a partner's key, or direct with the partner header and proof the gateway adds. */
    public record Target(String name, URI base, String header, String value) {

        public static Target gateway(URI gateway, String apiKey) {
            return new Target("gateway", gateway, "x-api-key", apiKey);
        }

        public static Target direct(URI service, String partnerId) {
            return new Target("direct", service, "X-Partner-Id", partnerId);
        }

        /** A direct call carries a service proof too, signed now: fresh for the 60 s a list query's timing is capped well under. */
        public HttpRequest get(String pathAndQuery) {
            URI uri = URI.create(base.resolve(pathAndQuery).toString());
            HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
            String[] headers = name.equals("direct") ? DirectCalls.headers("GET", uri, value) : new String[] {header, value};
            for (int i = 0; i < headers.length; i += 2) {
                builder.header(headers[i], headers[i + 1]);
            }
            return builder.build();
        }
    }

    /** Calls made, then p50, p95, p99 and max in milliseconds. */
    public record Figures(long n, double p50Ms, double p95Ms, double p99Ms, double maxMs) {

        /** Kept as {@code <prefix>.p50Ms}, {@code .p95Ms} (with {@code p95Role}: the list aims are on p95), {@code .p99Ms}, {@code .maxMs}. */
        public void record(Results results, String prefix, String label, Results.Role p95Role) {
            results.record(prefix + ".p50Ms", p50Ms, "ms", label + ", p50");
            results.add(p95Role, prefix + ".p95Ms", p95Ms, "ms", label + ", p95");
            results.record(prefix + ".p99Ms", p99Ms, "ms", label + ", p99");
            results.record(prefix + ".maxMs", maxMs, "ms", label + ", max");
        }
    }

    /** A query string as a figure key's word: {@code status=active} is {@code status-active}, none is {@code all}. */
    public static String keyOf(String query) {
        String key = query.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
        return key.isEmpty() ? "all" : key;
    }

    private PageTimer() {
    }

    /** The list's {@code pagination.total} (one call, which must answer 200). */
    public static long total(HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(request.uri() + " answered " + response.statusCode() + " " + response.body());
        }
        return GatewayApi.JSON.readTree(response.body()).path("pagination").path("total").asLong(-1);
    }

    /**
     * Up to {@code warmUp} calls (within half the cap), then up to {@code calls} timed sequential
     * calls, stopped at {@code cap}.
     */
    public static Figures time(HttpRequest request, int warmUp, int calls, Duration cap) throws Exception {
        long warmEnd = System.nanoTime() + cap.toNanos() / 2;
        for (int i = 0; i < warmUp && System.nanoTime() < warmEnd; i++) {
            HTTP.send(request, HttpResponse.BodyHandlers.discarding());
        }
        Histogram histogram = new Histogram(3);
        long end = System.nanoTime() + cap.toNanos();
        for (int i = 0; i < calls && System.nanoTime() < end; i++) {
            long start = System.nanoTime();
            HttpResponse<byte[]> response = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
            histogram.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
            if (response.statusCode() != 200) {
                throw new IllegalStateException(request.uri() + " answered " + response.statusCode());
            }
        }
        return new Figures(histogram.getTotalCount(), histogram.getValueAtPercentile(50) / 1000.0,
                histogram.getValueAtPercentile(95) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0,
                histogram.getMaxValue() / 1000.0);
    }
}

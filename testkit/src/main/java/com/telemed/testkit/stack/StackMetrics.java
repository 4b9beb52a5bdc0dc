package com.telemed.testkit.stack;

import com.telemed.testkit.metrics.PrometheusText;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./stack metrics}: scrapes {@code /q/metrics} of each running service (on its management port) and prints one line
 * per service with the platform's key figures: HTTP calls served and those that answered 5xx, the
 * slowest call of the last minutes (Micrometer's {@code _max}), the outbox backlog and the age of
 * its oldest row, the largest Kafka consumer lag, the database pool's active connections and
 * callers waiting, and periodic job failures and runs (in total, then per job under the table).
 * {@code -} where a service has no such thing.
 *
 * <p>Arguments: {@code name=managementUrl} per service, in the order to print.
 */
public final class StackMetrics {

    private static final String COLUMNS = "%-17s %8s %5s %7s %7s %9s %9s %16s %16s";
    static final String HEADER = String.format(Locale.ROOT, COLUMNS,
            "service", "requests", "5xx", "max ms", "outbox", "oldest s", "kafka lag", "db connections", "job fails/runs");

    private StackMetrics() {
    }

    public static void main(String[] args) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Map<String, Optional<String>> scrapes = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            scrapes.put(arg.substring(0, equals), scrape(client, arg.substring(equals + 1)));
        }
        System.out.print(table(scrapes));
    }

    private static Optional<String> scrape(HttpClient client, String baseUrl) throws InterruptedException {
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(baseUrl + "/q/metrics"))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    /** The table, one line per service; a service without a scrape is "not answering". */
    static String table(Map<String, Optional<String>> scrapes) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        StringBuilder jobs = new StringBuilder();
        for (Map.Entry<String, Optional<String>> service : scrapes.entrySet()) {
            if (service.getValue().isEmpty()) {
                out.append(String.format(Locale.ROOT, "%-17s not answering", service.getKey())).append('\n');
                continue;
            }
            PrometheusText scrape = PrometheusText.parse(service.getValue().get());
            out.append(line(service.getKey(), scrape)).append('\n');
            List<String> each = jobs(scrape);
            if (!each.isEmpty()) {
                jobs.append(String.format(Locale.ROOT, "  %-17s %s", service.getKey(), String.join(", ", each))).append('\n');
            }
        }
        if (!jobs.isEmpty()) {
            out.append("\nJobs (failed/runs):\n").append(jobs);
        }
        return out.toString();
    }

    static String line(String service, PrometheusText scrape) {
        String requests = count(scrape.sum("http_server_requests_seconds_count", sample -> true));
        String errors = requests.equals("-") ? "-" : count(Optional.of(scrape.sum("http_server_requests_seconds_count",
                sample -> sample.label("status") != null && sample.label("status").startsWith("5")).orElse(0.0)));
        String slowest = scrape.max("http_server_requests_seconds_max").map(seconds -> fixed(seconds * 1000, 0)).orElse("-");
        String backlog = count(scrape.max("outbox_backlog"));
        String oldest = scrape.max("outbox_oldest_age_seconds").map(seconds -> fixed(seconds, 1)).orElse("-");
        String lag = scrape.named("kafka_consumer_fetch_manager_records_lag_max").stream()
                .map(PrometheusText.Sample::value).filter(Double::isFinite).max(Double::compare)
                .map(StackMetrics::whole).orElse("-");
        Optional<Double> active = scrape.max("agroal_active_count");
        Optional<Double> awaiting = scrape.max("agroal_awaiting_count");
        String pool = active.map(value -> whole(value) + " active" + awaiting.filter(waiting -> waiting > 0)
                .map(waiting -> ", " + whole(waiting) + " wait").orElse("")).orElse("-");
        Optional<Double> runs = scrape.sum("job_runs_total", sample -> true);
        String jobs = runs.map(total -> whole(scrape.sum("job_failures_total", sample -> true).orElse(0.0)) + "/" + whole(total))
                .orElse("-");
        return String.format(Locale.ROOT, COLUMNS, service, requests, errors, slowest, backlog, oldest, lag, pool, jobs);
    }

    /** Every job's failures and runs, for the lines under the table: {@code outbox-relay 0/812}. */
    static List<String> jobs(PrometheusText scrape) {
        List<String> jobs = new ArrayList<>();
        for (PrometheusText.Sample run : scrape.named("job_runs_total")) {
            String job = run.label("job");
            double failed = scrape.sum("job_failures_total", sample -> job.equals(sample.label("job"))).orElse(0.0);
            jobs.add(job + " " + whole(failed) + "/" + whole(run.value()));
        }
        return jobs;
    }

    private static String count(Optional<Double> value) {
        return value.map(StackMetrics::whole).orElse("-");
    }

    private static String whole(double value) {
        return Double.isNaN(value) ? "?" : String.valueOf(Math.round(value));
    }

    private static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** A closed-loop load: {@code concurrency} clients each sending the next call when the last answered. */
final class LoadRun {

    record Result(String name, long calls, long errors, double seconds, Histogram latencies) {
        double perSecond() {
            return calls / seconds;
        }

        double p50Ms() {
            return latencies.getValueAtPercentile(50) / 1000.0;
        }

        double p99Ms() {
            return latencies.getValueAtPercentile(99) / 1000.0;
        }

        String line() {
            return String.format("%-28s %9.0f req/s   p50 %6.2f ms   p99 %6.2f ms   (%d calls, %d errors)",
                    name, perSecond(), p50Ms(), p99Ms(), calls, errors);
        }
    }

    private LoadRun() {
    }

    static Result run(String name, URI uri, String[] headers, int concurrency, Duration duration) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).headers(headers).timeout(Duration.ofSeconds(10)).GET().build();
        Recorder recorder = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        long end = System.nanoTime() + duration.toNanos();
        List<Thread> clients = new ArrayList<>();
        long began = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    try {
                        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        if (response.statusCode() != 200) {
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

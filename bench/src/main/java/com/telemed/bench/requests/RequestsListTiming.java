package com.telemed.bench.requests;

import com.telemed.bench.support.Machine;
import com.telemed.bench.support.PageTimer;
import com.telemed.bench.support.Results;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measurement: page 1 (limit 20) of {@code GET /v1/requests?status=pending} (the aim: p95 under
 * 50 ms through the gateway), the unfiltered list and {@code status=approved} for context, through
 * the gateway and direct, sequential calls after a warm-up; p50/p95/p99/max and {@code pagination.total}.
 */
final class RequestsListTiming {

    private RequestsListTiming() {
    }

    /** Kept as {@code list.<query>.<gateway|direct>.<percentile>}; the headline: status=pending through the gateway, p95. */
    static void run(Results results, URI gateway, URI requests, String partnerId, String apiKey, int calls, int warmUp, Duration cap)
            throws Exception {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("status=pending (the aim)", "?status=pending");
        queries.put("no filter (context)", "");
        queries.put("status=approved (rarer, context)", "?status=approved");
        System.out.printf("%nGET /v1/requests page 1 (limit 20), %d sequential calls per query after up to %d warm-up, at most %d s each; loopback, %d cores, %s%n",
                calls, warmUp, cap.toSeconds(), Machine.cores(), Machine.loadAverage());
        System.out.printf("%-34s %-8s %8s %5s %8s %8s %8s %8s%n", "query", "target", "total", "n", "p50 ms", "p95 ms", "p99 ms", "max ms");
        String pendingVerdict = null;
        List<PageTimer.Target> targets = List.of(PageTimer.Target.gateway(gateway, apiKey), PageTimer.Target.direct(requests, partnerId));
        for (Map.Entry<String, String> query : queries.entrySet()) {
            for (PageTimer.Target target : targets) {
                HttpRequest request = target.get("/v1/requests" + query.getValue());
                long total = PageTimer.total(request);
                PageTimer.Figures r = PageTimer.time(request, warmUp, calls, cap);
                System.out.printf("%-34s %-8s %8d %5d %8.1f %8.1f %8.1f %8.1f%s%n", query.getKey(), target.name(), total,
                        r.n(), r.p50Ms(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.p95Ms() >= 50 ? "   <-- p95 over 50 ms" : "");
                boolean aim = query.getKey().startsWith("status=pending") && target.name().equals("gateway");
                r.record(results, "list." + PageTimer.keyOf(query.getValue()) + "." + target.name(), "GET /v1/requests"
                        + query.getValue() + " page 1, " + target.name(), aim ? Results.Role.HEADLINE : Results.Role.DETAIL);
                if (query.getKey().startsWith("status=pending") && target.name().equals("gateway")) {
                    pendingVerdict = String.format("GET /v1/requests?status=pending through the gateway: p95 %.1f ms -> %s",
                            r.p95Ms(), r.p95Ms() < 50 ? "aim met (p95 under 50 ms)" : "aim missed (p95 not under 50 ms)");
                }
            }
        }
        System.out.println("\n" + pendingVerdict);
    }
}

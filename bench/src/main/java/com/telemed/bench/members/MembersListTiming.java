package com.telemed.bench.members;

import com.telemed.bench.support.Machine;
import com.telemed.bench.support.PageTimer;
import com.telemed.bench.support.Results;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measurement: page 1 (limit 20) of {@code GET /v1/members} for each query (no filter, a status,
 * searches common, rare, by email and matching nothing), through the gateway and direct, sequential
 * calls after a warm-up; p50/p95/p99/max and {@code pagination.total}, and the verdict on the aim
 * (p95 under 50 ms through the gateway for every query).
 */
final class MembersListTiming {

    private MembersListTiming() {
    }

    /**
     * Kept as {@code list.<query>.<gateway|direct>.<percentile>}; the headlines: p95 through the gateway of
     * status=active and of search=smith (a common name: the search's most work).
     */
    static void run(Results results, URI gateway, URI members, String partnerId, String apiKey, int calls, int warmUp, Duration cap)
            throws Exception {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("no filter (context)", "");
        queries.put("status=active", "status=active");
        queries.put("search=smith (common last name)", "search=smith");
        queries.put("search=quackenbush (rare last name)", "search=quackenbush");
        queries.put("search=4242 (email fragment)", "search=4242");
        queries.put("search=mail.test (email domain)", "search=" + URLEncoder.encode("mail.test", StandardCharsets.UTF_8));
        queries.put("search=zzqx (matches nothing)", "search=zzqx");
        queries.put("search=jo (2 letters)", "search=jo");

        System.out.printf("%nPage 1 (limit 20), %d sequential calls per query after %d warm-up, at most %d s each; loopback, %d cores%n",
                calls, warmUp, cap.toSeconds(), Machine.cores());
        System.out.printf("%-38s %-8s %8s %5s %8s %8s %8s %8s%n", "query", "target", "total", "n", "p50 ms", "p95 ms", "p99 ms", "max ms");
        List<String> misses = new ArrayList<>();
        List<PageTimer.Target> targets = List.of(PageTimer.Target.gateway(gateway, apiKey), PageTimer.Target.direct(members, partnerId));
        for (Map.Entry<String, String> query : queries.entrySet()) {
            String qs = query.getValue().isEmpty() ? "" : "?" + query.getValue();
            for (PageTimer.Target target : targets) {
                HttpRequest request = target.get("/v1/members" + qs);
                long total = PageTimer.total(request);
                PageTimer.Figures r = PageTimer.time(request, warmUp, calls, cap);
                System.out.printf("%-38s %-8s %8d %5d %8.1f %8.1f %8.1f %8.1f%s%n", query.getKey(), target.name(), total,
                        r.n(), r.p50Ms(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.p95Ms() >= 50 ? "   <-- p95 over 50 ms" : "");
                boolean headline = target.name().equals("gateway")
                        && (query.getValue().equals("status=active") || query.getValue().equals("search=smith"));
                r.record(results, "list." + PageTimer.keyOf(query.getValue()) + "." + target.name(), "GET /v1/members" + qs
                        + " page 1, " + target.name(), headline ? Results.Role.HEADLINE : Results.Role.DETAIL);
                if (r.p95Ms() >= 50 && target.name().equals("gateway")) {
                    misses.add(query.getKey());
                }
            }
        }
        System.out.println(misses.isEmpty() ? "\naim met: p95 under 50 ms for every query through the gateway"
                : "\naim missed (p95 >= 50 ms through the gateway) for: " + String.join("; ", misses));
    }
}

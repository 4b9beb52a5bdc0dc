package com.telemed.bench.members;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.JfrProfile;
import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.PageTimer;
import com.telemed.bench.support.Results;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issues 4 and 44: page 1 of {@code GET /v1/members} for every filter and search ({@link MembersListQueries}) with
 * 100,000 members for the partner under test among 1,000,000 in all: 16 clients through the gateway beside the
 * page's SQL by pgbench ({@link ListLoad}; aim: p95 under 20 ms through the gateway for every query).
 *
 * <p>Starts its own platform on random loopback ports, creates a partner through the operator API,
 * loads the members straight into the members database ({@link MembersData}) and a third of the partner's members'
 * requests into requests-service's ({@link MemberRequestsData}: the summaries of a page are read and sent), measures, then writes
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL members-service runs, built by members-service's own
 * {@code MemberQueries} ({@link MembersListExplain}), to bench/results/members-list-plans.txt.
 *
 * <p>Run: bench/members-list.sh [seconds per query=10] [warm-up seconds per query=5] [clients=16]
 */
public final class MembersListBench {

    /** Issue 44: page 1 of every query under 20 ms at p95 through the gateway. */
    private static final double AIM_P95_MS = 20;

    private MembersListBench() {
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A page's answer, read whole. */
    private static JsonNode page(HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(request.uri() + " answered " + response.statusCode());
        }
        return GatewayApi.JSON.readTree(response.body());
    }

    public static void main(String[] args) throws Exception {
        Duration round = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 10);
        Duration warmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 5);
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Results results = Results.open("members-list", args).parameter("seconds", round).parameter("warmUpSeconds", warmUp)
                .parameter("clients", clients);
        long began = System.nanoTime();
        MembersListProfile.prepare();
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s%n", (System.nanoTime() - began) / 1e9);
            JsonNode partner = platform.api().partner("Bench Health");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            URI gateway = platform.url(PlatformService.GATEWAY);

            PostgresServer postgres = platform.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("members"), postgres.username(), postgres.password())) {
                MembersData.load(db, partnerId);
                try (Connection requestsDb = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.REQUESTS.database()),
                        postgres.username(), postgres.password())) {
                    MemberRequestsData.load(requestsDb, partnerId);
                }
                Map<MembersListQueries.Query, Long> totals = new LinkedHashMap<>();
                List<ListLoad.Query> queries = new ArrayList<>();
                for (MembersListQueries.Query query : MembersListQueries.all()) {
                    String qs = query.queryString();
                    JsonNode page = page(PageTimer.Target.gateway(gateway, apiKey).get("/v1/members" + (qs.isEmpty() ? "" : "?" + qs)));
                    long total = page.path("pagination").path("total").asLong(-1);
                    totals.put(query, total);
                    // pgbench replays what the service runs: for a search asked again, its kept page (MemberQueries.list).
                    List<String> ids = new ArrayList<>();
                    page.path("members").forEach(member -> ids.add(member.path("id").asText()));
                    queries.add(query.load(partnerId, total, ids));
                }
                JfrProfile jfr = MembersListProfile.requested() ? MembersListProfile.record(platform) : null;
                ListLoad.warmUp(platform, List.of(PlatformService.GATEWAY, PlatformService.MEMBERS, PlatformService.REQUESTS),
                        gateway, apiKey, queries, clients);
                if (!MembersListProfile.only()) {
                    ListLoad.run(results, "GET /v1/members", gateway, apiKey, postgres, "members", queries, clients, warmUp, round, AIM_P95_MS);
                }
                if (MembersListProfile.requested()) {
                    MembersListProfile.run(platform, jfr, gateway, apiKey, queries, clients, round);
                }
                if (!MembersListProfile.only()) {
                    MembersListExplain.run(db, partnerId, totals);
                }
            }
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        if (!MembersListProfile.only()) {
            results.write();
        }
    }
}

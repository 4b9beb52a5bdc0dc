package com.telemed.bench.requests;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.StatementStats;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Issues 5 and 44, requests-service:
 *
 * <ol>
 * <li>Page 1 of {@code GET /v1/requests} with 1,000,000 requests in all and 100,000 for the partner under test,
 *     for every filter of the contract ({@link RequestsListQueries}): 16 clients through the gateway beside the
 *     page's SQL by pgbench ({@link ListLoad}; aim: p95 under 20 ms through the gateway for every query), then
 *     EXPLAIN (ANALYZE, BUFFERS) with generic plans of the SQL that {@code RequestQueries.list} runs, built by
 *     requests-service's own {@code RequestQueries} ({@link RequestsListExplain}), written to
 *     bench/results/requests-plans.txt.</li>
 * <li>{@code POST /v1/requests} (one item, existing member) through the gateway with 16 concurrent
 *     clients, beside the ceiling of the database itself measured in the same run by pgbench, and the
 *     ratio of the two; direct to requests-service too, for context ({@link RequestsPostThroughput}).</li>
 * </ol>
 *
 * <p>Starts its own platform on random loopback ports, creates a partner, a drug and a member through
 * the APIs, loads requests and line items with set-based SQL ({@link RequestsData}), measures the list
 * first (on exactly the loaded data), then the POST.
 *
 * <p>Run: bench/requests.sh [seconds per list query=10] [warm-up seconds per list query=5] [clients=16]
 * [seconds per POST round=30]. 0 seconds per list query: nothing loaded, only the POST is measured (on near-empty
 * tables); with {@code BENCH_CREATE_ONLY=1} too, only its round through the gateway (an experiment's quick loop:
 * its CPU per create; the pgbench ceilings and the direct round are skipped). 0 seconds per POST round: only the
 * list part (about 8 minutes instead of 15).
 */
public final class RequestsBench {

    private static final String DRUG_ID = "bench-semaglutide";

    /** Issue 44: page 1 of every query under 20 ms at p95 through the gateway. */
    private static final double AIM_P95_MS = 20;

    private RequestsBench() {
    }

    public static void main(String[] args) throws Exception {
        Duration listRound = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 10);
        Duration listWarmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 5);
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Duration round = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 30);
        Results results = Results.open("requests", args).parameter("listSeconds", listRound).parameter("listWarmUpSeconds", listWarmUp)
                .parameter("listClients", clients).parameter("postRoundSeconds", round);
        long began = System.nanoTime();
        if (Profile.requested()) {
            StatementStats.preloadForTheNextPlatform();
        }
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s%n", (System.nanoTime() - began) / 1e9);
            URI gateway = platform.url(PlatformService.GATEWAY);
            GatewayApi api = platform.api();
            JsonNode partner = api.partner("Bench Health");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            api.send("PUT", "/ops/v1/drugs/" + DRUG_ID, """
                    {"name": "Semaglutide (bench)", "classification": "non-controlled",
                     "skus": [{"label": "2.5 mg/mL vial", "packageSize": 2,
                               "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}, "active": true}],
                     "pharmacy": {"id": "sandbox-pharmacy", "method": "integration_a"}}""", 200);
            String memberId = api.as(apiKey, "POST", "/v1/members", """
                    {"firstName": "Ada", "lastName": "Bench", "email": "ada.bench@example.com",
                     "dateOfBirth": "1980-02-03", "state": "CA",
                     "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90001"}}""",
                    201).path("member").path("id").asText();
            String body = "{\"memberId\": \"" + memberId + "\", \"caseNotes\": \"bench\", \"items\": [{\"drugId\": \""
                    + DRUG_ID + "\"}]}";
            // One call first: a broken create fails here, not as a column of errors in the load figures.
            String requestId = api.as(apiKey, "POST", "/v1/requests", body, 201).path("requestId").asText();

            PostgresServer postgres = platform.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("requests"), postgres.username(), postgres.password())) {
                if (!listRound.isZero()) {
                    RequestsData.load(db, partnerId);
                    List<ListLoad.Query> queries = RequestsListQueries.all(LocalDate.now(ZoneOffset.UTC)).stream()
                            .map(query -> query.load(partnerId)).toList();
                    ListLoad.warmUp(platform, List.of(PlatformService.GATEWAY, PlatformService.REQUESTS), gateway, apiKey, queries,
                            clients);
                    ListLoad.Probe probe = ListLoad.Probe.of(platform, List.of(PlatformService.GATEWAY, PlatformService.REQUESTS));
                    ListLoad.run(results, "GET /v1/requests", gateway, apiKey, postgres, "requests", queries, clients, listWarmUp,
                            listRound, AIM_P95_MS, probe);
                    RequestsListExplain.run(db, partnerId);
                } else {
                    System.out.println("list timing skipped (0 seconds per list query): no requests loaded");
                }
            }
            if (round.isZero()) {
                System.out.println("POST round skipped (0 seconds per POST round)");
                System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
                results.write();
                return;
            }
            RequestsPostThroughput.run(results, platform, new RequestsPostThroughput.Create(partnerId, apiKey, memberId, DRUG_ID, requestId,
                    body), round);
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }
}

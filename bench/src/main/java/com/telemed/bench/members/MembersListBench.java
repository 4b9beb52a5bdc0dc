package com.telemed.bench.members;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.Results;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;

/**
 * Issue 4: page 1 of {@code GET /v1/members?search=...} and {@code GET /v1/members?status=active}
 * with 100,000 members for the partner under test among 1,000,000 in all. Aim: p95 under 50 ms.
 *
 * <p>Starts its own platform on random loopback ports, creates a partner through the operator API,
 * loads the members straight into the members database ({@link MembersData}), times the list
 * ({@link MembersListTiming}), then prints EXPLAIN (ANALYZE, BUFFERS) of the SQL members-service runs,
 * built by members-service's own {@code MemberQueries} ({@link MembersListExplain}).
 *
 * <p>Run: bench/members-list.sh [calls per query=200] [warm-up calls=50] [seconds cap per query and target=12]
 */
public final class MembersListBench {

    private MembersListBench() {
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        Duration cap = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 12);
        Results results = Results.open("members-list", args).parameter("calls", calls).parameter("warmUpCalls", warmUp)
                .parameter("capSeconds", cap);
        long began = System.nanoTime();
        try (BenchPlatform platform = BenchPlatform.start()) {
            System.out.printf("platform up in %.0f s%n", (System.nanoTime() - began) / 1e9);
            JsonNode partner = platform.api().partner("Bench Health");
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();

            PostgresServer postgres = platform.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("members"), postgres.username(), postgres.password())) {
                MembersData.load(db, partnerId);
                MembersListTiming.run(results, platform.url(PlatformService.GATEWAY), platform.url(PlatformService.MEMBERS),
                        partnerId, apiKey, calls, warmUp, cap);
                MembersListExplain.run(db, partnerId);
            }
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
        results.write();
    }
}

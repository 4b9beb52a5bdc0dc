package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.kafka.BillingEvents;
import com.telemed.testkit.kafka.ConsumerGroups;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * billing-service's ledger consumers with two replicas (architecture.md, "Several replicas"): both
 * replicas consume {@code member.events} and {@code care.events} in the group
 * {@code billing-service} (the test waits until each holds partitions of both topics), one is killed
 * (SIGKILL: no offset committed) in the middle of the stream, and the ledger ends exactly as the
 * stream says. Each batch is applied in one transaction with its envelope ids, by whichever replica
 * holds the partition; the killed replica's applied but unacknowledged batches and the one it was
 * applying come to the survivor after the killed member's session (10 s), and the recorded ids and
 * order-independent merges make that harmless. Members' events of one member meet on both replicas
 * at once (a member's {@code member.events} and its approval sit on different topics, so usually
 * different replicas): the merges lock rows in member order and retry a failed batch.
 *
 * <p>After the kill the whole stream is published again (same envelope ids, as a relay resends
 * after a crash), so the survivor meets copies of what the killed replica applied.
 *
 * <p>The stream, for {@value #MEMBERS} members of one partner (as BillingLedgerRestartIT's): created
 * on 1 October 2026, approved on 5 October one second apart; every third paused on 20 October and
 * left paused; every ninth (from the second) paused then and active again on 10 November. Then: the
 * October and November summaries through the gateway are exactly that, the ledger holds exactly one
 * status row per status event, and {@code consumed_events} holds each of the stream's envelope ids.
 *
 * <p>On the platform the test JVM shares: the killed instance is started again and the replica
 * stopped at the end.
 */
@ExtendWith(RunningPlatform.class)
class BillingLedgerReplicasIT {

    private static final int MEMBERS = 300;
    private static final String GROUP = "billing-service";
    private static final Instant APPROVED = Instant.parse("2026-10-05T00:00:00Z");

    private RunningPlatform.Handle platform;

    private record Member(String id, String firstName, Instant billingStart, boolean leftPaused) {
    }

    @Test
    void twoReplicasOneKilledMidStreamLeaveTheLedgerExact(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        Platform services = platform.platform();
        String kafka = platform.infrastructure().kafka().bootstrapServers();
        URI replica = services.startReplica(PlatformService.BILLING);
        boolean down = false;
        try {
            JsonPath partner = ops().body(Map.of("name", "Billing Replicas E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = partner.getString("partner.id");
            String apiKey = partner.getString("apiKey");
            ops().body(Map.of("enabled", true, "cycle", "monthly", "ratePerMember", 10))
                    .put("/ops/v1/partners/" + partnerId + "/billing").then().statusCode(200);

            List<Member> members = new ArrayList<>();
            List<BillingEvents.Envelope> stream = new ArrayList<>();
            int statusEvents = 0;
            for (int i = 0; i < MEMBERS; i++) {
                String id = UUID.randomUUID().toString();
                String firstName = "R" + i;
                boolean paused = i % 3 == 0;
                boolean resumed = i % 9 == 1;
                Member member = new Member(id, firstName, APPROVED.plusSeconds(i), paused);
                members.add(member);
                stream.add(BillingEvents.created(partnerId, id, firstName, "Replica", firstName.toLowerCase() + "@example.com",
                        Instant.parse("2026-10-01T00:00:00Z")));
                stream.add(BillingEvents.approved(partnerId, id, member.billingStart()));
                statusEvents++;
                if (paused || resumed) {
                    stream.add(BillingEvents.statusChanged(partnerId, id, "active", "paused", Instant.parse("2026-10-20T00:00:00Z")));
                    statusEvents++;
                }
                if (resumed) {
                    stream.add(BillingEvents.statusChanged(partnerId, id, "paused", "active", Instant.parse("2026-11-10T00:00:00Z")));
                    statusEvents++;
                }
            }

            // Each replica holds partitions of both topics (one consumer per topic and replica) before publishing.
            await("both replicas in " + GROUP).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ConsumerGroups.assignment(kafka, GROUP, "care.events").size() == 2
                            && ConsumerGroups.assignment(kafka, GROUP, "member.events").size() == 2);
            TopicWriter.publish(kafka, stream.stream().map(BillingEvents.Envelope::keyed).toList());
            // Mid-stream: the ledger has taken some.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> count("SELECT count(*) FROM ledger_members WHERE partner_id = ?", partnerId) > 0);
            assertEquals(137, services.kill(PlatformService.BILLING));
            down = true;
            // The stream once more, as an outbox relay resends after a crash: the survivor meets copies of
            // what the killed replica applied.
            TopicWriter.publish(kafka, stream.stream().map(BillingEvents.Envelope::keyed).toList());

            // The survivor takes the killed replica's partitions once its session ends and applies the rest:
            // every envelope id of the stream recorded.
            Object[] ids = stream.stream().map(BillingEvents.Envelope::id).toArray();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> count("SELECT count(*) FROM consumed_events WHERE event_id = ANY (?::uuid[])", ids) == stream.size());
            // Every record, copies included, consumed and committed.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ConsumerGroups.lag(kafka, GROUP, "care.events") == 0 && ConsumerGroups.lag(kafka, GROUP, "member.events") == 0);
            // The gateway reads the summaries from the killed instance's port.
            services.startAgain(PlatformService.BILLING);
            down = false;

            List<Map<String, Object>> october = expected(members, false);
            List<Map<String, Object>> november = expected(members, true);
            JsonPath octoberSummary = summary(apiKey, "2026-10");
            assertEquals(october, octoberSummary.getList("billableMembers"));
            assertEquals(MEMBERS * 10, octoberSummary.getInt("totalAmount"));
            JsonPath novemberSummary = summary(apiKey, "2026-11");
            assertEquals(november, novemberSummary.getList("billableMembers"));
            assertEquals(MEMBERS - MEMBERS / 3, november.size());
            assertEquals(november.size() * 10, novemberSummary.getInt("totalAmount"));
            assertEquals(statusEvents, count("SELECT count(*) FROM ledger_status_changes WHERE partner_id = ?", partnerId));
            assertEquals(MEMBERS, count("SELECT count(*) FROM ledger_members WHERE partner_id = ?", partnerId));
        } finally {
            try {
                if (down) {
                    services.startAgain(PlatformService.BILLING);
                }
            } finally {
                services.stopReplica(replica);
            }
        }
    }

    private static List<Map<String, Object>> expected(List<Member> members, boolean november) {
        List<Map<String, Object>> listed = new ArrayList<>();
        for (Member member : members) {
            if (november && member.leftPaused()) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("memberId", member.id());
            row.put("memberName", member.firstName() + " Replica");
            row.put("memberEmail", member.firstName().toLowerCase() + "@example.com");
            row.put("billingStartDate", member.billingStart().toString().replace("Z", ".000Z"));
            row.put("billingAnniversaryDay", 5);
            listed.add(row);
        }
        return listed;
    }

    /** A count in billing's database; the one parameter a text or, for an array, the ids. */
    private long count(String query, Object parameter) throws SQLException {
        PostgresServer postgres = platform.infrastructure().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.BILLING.database()),
                postgres.username(), postgres.password());
             PreparedStatement statement = connection.prepareStatement(query)) {
            if (parameter instanceof Object[] ids) {
                statement.setArray(1, connection.createArrayOf("text", ids));
            } else {
                statement.setString(1, (String) parameter);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private JsonPath summary(String apiKey, String period) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("period", period)
                .get("/v1/billing").then().statusCode(200).extract().jsonPath();
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }
}

package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.kafka.BillingEvents;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
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
 * billing-service killed (SIGKILL: no offset committed on the way out) in the middle of a stream
 * on {@code member.events} and {@code care.events}, the rest of the stream published while it is
 * down, then started again: the summaries read through the gateway are exactly what the whole
 * stream says. Batches applied before the kill but not yet acknowledged come again after the
 * restart; their recorded envelope ids make that harmless.
 *
 * <p>The stream, for {@value #MEMBERS} members of one partner, each created on 1 October 2026 and
 * approved on 5 October (one second apart, so the summary's order is known): every third paused on
 * 20 October and left paused, every third of the others paused then and active again on 10
 * November. October lists everyone; November everyone but the members left paused.
 *
 * <p>On the platform the test JVM shares, as WebhookRestartIT: {@link Platform#startAgain} returns
 * once billing-service is ready again, and the {@code finally} starts it if the test failed while
 * it was down.
 */
@ExtendWith(RunningPlatform.class)
class BillingLedgerRestartIT {

    private static final int MEMBERS = 3000;
    private static final Instant APPROVED = Instant.parse("2026-10-05T00:00:00Z");

    private record Member(String id, String firstName, Instant billingStart, boolean leftPaused) {
    }

    private static RequestSpecification ops(RunningPlatform.Handle platform) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private static JsonPath summary(RunningPlatform.Handle platform, String apiKey, String period) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("period", period)
                .get("/v1/billing").then().statusCode(200).extract().jsonPath();
    }

    private static List<Map<String, Object>> expected(List<Member> members, boolean november) {
        List<Map<String, Object>> listed = new ArrayList<>();
        for (Member member : members) {
            if (november && member.leftPaused()) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("memberId", member.id());
            row.put("memberName", member.firstName() + " Restart");
            row.put("memberEmail", member.firstName().toLowerCase() + "@example.com");
            row.put("billingStartDate", member.billingStart().toString().replace("Z", ".000Z"));
            row.put("billingAnniversaryDay", 5);
            listed.add(row);
        }
        return listed;
    }

    @Test
    void aKilledConsumerPicksTheStreamUpAndTheSummariesAreExact(RunningPlatform.Handle platform) {
        JsonPath partner = ops(platform).body(Map.of("name", "Billing Restart E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
        String partnerId = partner.getString("partner.id");
        String apiKey = partner.getString("apiKey");
        ops(platform).body(Map.of("enabled", true, "cycle", "monthly", "ratePerMember", 10))
                .put("/ops/v1/partners/" + partnerId + "/billing").then().statusCode(200);

        List<Member> members = new ArrayList<>();
        List<TopicWriter.Keyed> stream = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            String id = UUID.randomUUID().toString();
            String firstName = "M" + i;
            boolean paused = i % 3 == 0;
            boolean resumed = i % 9 == 1;
            Member member = new Member(id, firstName, APPROVED.plusSeconds(i), paused);
            members.add(member);
            stream.add(BillingEvents.created(partnerId, id, firstName, "Restart", firstName.toLowerCase() + "@example.com",
                    Instant.parse("2026-10-01T00:00:00Z")).keyed());
            stream.add(BillingEvents.approved(partnerId, id, member.billingStart()).keyed());
            if (paused || resumed) {
                stream.add(BillingEvents.statusChanged(partnerId, id, "active", "paused", Instant.parse("2026-10-20T00:00:00Z")).keyed());
            }
            if (resumed) {
                stream.add(BillingEvents.statusChanged(partnerId, id, "paused", "active", Instant.parse("2026-11-10T00:00:00Z")).keyed());
            }
        }
        String kafka = platform.infrastructure().kafka().bootstrapServers();
        Platform services = platform.platform();
        int half = stream.size() / 2;
        TopicWriter.publish(kafka, stream.subList(0, half));
        // Some of the first half in the ledger: the consumer is mid-stream.
        await().atMost(Duration.ofSeconds(60)).until(() -> summary(platform, apiKey, "2026-10").getInt("uniqueMemberCount") > 0);
        boolean down = false;
        try {
            assertEquals(137, services.kill(PlatformService.BILLING));
            down = true;
            TopicWriter.publish(kafka, stream.subList(half, stream.size()));
            services.startAgain(PlatformService.BILLING);
            down = false;
        } finally {
            if (down) {
                services.startAgain(PlatformService.BILLING);
            }
        }

        List<Map<String, Object>> october = expected(members, false);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> summary(platform, apiKey, "2026-10").getInt("uniqueMemberCount") == october.size()
                        && summary(platform, apiKey, "2026-11").getInt("uniqueMemberCount") == expected(members, true).size());
        JsonPath octoberSummary = summary(platform, apiKey, "2026-10");
        assertEquals(october, octoberSummary.getList("billableMembers"));
        assertEquals(MEMBERS * 10, octoberSummary.getInt("totalAmount"));
        JsonPath novemberSummary = summary(platform, apiKey, "2026-11");
        List<Map<String, Object>> november = expected(members, true);
        assertEquals(november, novemberSummary.getList("billableMembers"));
        assertEquals(MEMBERS - MEMBERS / 3, november.size());
        assertEquals(november.size() * 10, novemberSummary.getInt("totalAmount"));
    }
}

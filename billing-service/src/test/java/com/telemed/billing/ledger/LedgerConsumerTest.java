package com.telemed.billing.ledger;

import static com.telemed.testkit.kafka.BillingEvents.approved;
import static com.telemed.testkit.kafka.BillingEvents.created;
import static com.telemed.testkit.kafka.BillingEvents.deleted;
import static com.telemed.testkit.kafka.BillingEvents.denied;
import static com.telemed.testkit.kafka.BillingEvents.legacyApproved;
import static com.telemed.testkit.kafka.BillingEvents.statusChanged;
import static com.telemed.testkit.kafka.BillingEvents.updated;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.billing.rebuild.OwnersNeighbourResource;
import com.telemed.testkit.kafka.BillingEvents;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The consumers on the real broker: envelopes published to {@code care.events} and
 * {@code member.events} as the owners' outbox relays publish them, delivered twice, out of order
 * between the topics, with records billing has no use for and records that are no envelope among
 * them; the ledger and the summary are right every time.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class LedgerConsumerTest {

    private static final Duration CONSUMED = Duration.ofSeconds(30);

    String partner;

    @BeforeEach
    void partnerWithMonthlyBilling() {
        partner = "partner-" + UUID.randomUUID();
        given().contentType("application/json").body("{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 20}")
                .put("/ops/v1/partners/" + partner + "/billing").then().statusCode(200);
    }

    private static String member() {
        return UUID.randomUUID().toString();
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    /** All under the first envelope's key: one partition, consumed in this order. */
    private static void publish(BillingEvents.Envelope... envelopes) {
        TopicWriter.publish(InfrastructureResource.running().kafka().bootstrapServers(), envelopes[0].topic(), envelopes[0].key(),
                Arrays.stream(envelopes).map(BillingEvents.Envelope::json).toArray(String[]::new));
    }

    private static void publishRaw(String topic, String key, String... values) {
        TopicWriter.publish(InfrastructureResource.running().kafka().bootstrapServers(), topic, key, values);
    }

    private JsonPath summary(String period) {
        return given().header("X-Partner-Id", partner).queryParam("period", period).get("/v1/billing")
                .then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> ledgerRow(String memberId) {
        List<Map<String, Object>> rows = ServiceDatabase.rows(
                "SELECT partner_id, first_name, last_name, email, names_at, billing_start FROM ledger_members WHERE member_id = ?",
                UUID.fromString(memberId));
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static List<String> timeline(String memberId) {
        return ServiceDatabase.texts("SELECT status || '@' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') "
                + "FROM ledger_status_changes WHERE member_id = ? ORDER BY at, seq", UUID.fromString(memberId));
    }

    private static long consumed(BillingEvents.Envelope envelope) {
        return ServiceDatabase.count("SELECT count(*) FROM consumed_events WHERE event_id = ?", UUID.fromString(envelope.id()));
    }

    private static void awaitNames(String memberId, String firstName) {
        await().atMost(CONSUMED).until(() -> {
            Map<String, Object> row = ledgerRow(memberId);
            return row != null && firstName.equals(row.get("first_name"));
        });
    }

    private static void awaitBillingStart(String memberId) {
        await().atMost(CONSUMED).until(() -> {
            Map<String, Object> row = ledgerRow(memberId);
            return row != null && row.get("billing_start") != null;
        });
    }

    @Test
    void theSameEventsDeliveredTwiceChangeTheLedgerOnce() {
        String memberId = member();
        BillingEvents.Envelope create = created(partner, memberId, "Ada", "Lovelace", "ada@example.com", at("2026-10-01T08:00:00Z"));
        BillingEvents.Envelope pause = statusChanged(partner, memberId, "active", "paused", at("2026-10-10T00:00:00Z"));
        BillingEvents.Envelope resume = statusChanged(partner, memberId, "paused", "active", at("2026-11-10T00:00:00Z"));
        BillingEvents.Envelope approve = approved(partner, memberId, at("2026-10-02T00:00:00Z"));
        // Every event twice in a row (one batch) and the whole stream again (later batches).
        publish(create, create, pause, pause, resume, resume);
        publish(approve, approve);
        publish(create, pause, resume);
        // Markers after the duplicates in the same partitions (publish sends under its first envelope's
        // key): once they are applied, so is everything before them.
        String marker = member();
        publish(approve, approved(partner, marker, at("2026-11-01T00:00:00Z")));
        publish(updated(partner, memberId, "Ada", "King", "ada@example.com", at("2026-11-20T00:00:00Z")));
        awaitNames(memberId, "Ada");
        await().atMost(CONSUMED).until(() -> "King".equals(ledgerRow(memberId).get("last_name")));
        awaitBillingStart(marker);

        assertEquals(List.of("active@2026-10-01T08:00:00", "paused@2026-10-10T00:00:00", "active@2026-11-10T00:00:00"),
                timeline(memberId));
        for (BillingEvents.Envelope envelope : List.of(create, pause, resume, approve)) {
            assertEquals(1, consumed(envelope));
        }
        JsonPath november = summary("2026-11");
        assertEquals(List.of(memberId, marker), november.getList("billableMembers.memberId"));
        assertEquals("Ada King", november.getString("billableMembers[0].memberName"));
        assertEquals("2026-10-02T00:00:00.000Z", november.getString("billableMembers[0].billingStartDate"));
        assertEquals(2, november.getInt("uniqueMemberCount"));
        assertEquals(40, november.getInt("totalAmount"));
    }

    @Test
    void eventsOutOfOrderBetweenTopicsEndInTheSameLedger() {
        String early = member();
        String paused = member();
        String renamed = member();
        // An approval seen before the member's creation.
        publish(approved(partner, early, at("2026-11-05T00:00:00Z")));
        awaitBillingStart(early);
        assertEquals("Unknown", summary("2026-11").getString("billableMembers[0].memberName"));
        publish(created(partner, early, "Eve", "Early", "eve@example.com", at("2026-11-01T00:00:00Z")));
        awaitNames(early, "Eve");

        // A status change (and the creation) before the approval; the later approval seen before the earlier one.
        publish(created(partner, paused, "Pat", "Paused", "pat@example.com", at("2026-09-01T00:00:00Z")),
                statusChanged(partner, paused, "active", "paused", at("2026-10-15T00:00:00Z")));
        awaitNames(paused, "Pat");
        publish(legacyApproved(partner, paused, at("2026-10-01T00:00:00Z")));
        publish(approved(partner, paused, at("2026-09-20T00:00:00Z")));
        await().atMost(CONSUMED).until(() -> summary("2026-09").getList("billableMembers.memberId").contains(paused));

        // Names: an older update delivered after a newer one changes nothing (a rebuild or a
        // redelivery brings old events back).
        BillingEvents.Envelope older = updated(partner, renamed, "Old", "Name", "old@example.com", at("2026-11-02T00:00:00Z"));
        publish(created(partner, renamed, "Ren", "New", "ren@example.com", at("2026-11-03T00:00:00Z")));
        publish(approved(partner, renamed, at("2026-11-04T00:00:00Z")));
        awaitNames(renamed, "Ren");
        awaitBillingStart(renamed);
        publish(older);
        await().atMost(CONSUMED).until(() -> consumed(older) == 1);

        assertEquals("2026-09-20T00:00:00.000Z", summary("2026-09").getString("billableMembers[0].billingStartDate"));
        assertEquals(List.of(paused), summary("2026-10").getList("billableMembers.memberId"));
        Map<String, Object> eve = new LinkedHashMap<>();
        eve.put("memberId", early);
        eve.put("memberName", "Eve Early");
        eve.put("memberEmail", "eve@example.com");
        eve.put("billingStartDate", "2026-11-05T00:00:00.000Z");
        eve.put("billingAnniversaryDay", 5);
        JsonPath november = summary("2026-11");
        assertEquals(List.of(renamed, early), november.getList("billableMembers.memberId"));
        assertEquals("Ren New", november.getString("billableMembers[0].memberName"));
        assertEquals("ren@example.com", november.getString("billableMembers[0].memberEmail"));
        assertEquals(eve, november.getMap("billableMembers[1]"));
    }

    @Test
    void recordsBillingHasNoUseForAreSkippedAndTheStreamGoesOn() {
        String memberId = member();
        String deletedMember = member();
        // One partition each: what follows the junk and the deletion is applied only after them.
        publishRaw("member.events", deletedMember, "not json", "{\"id\": 3}", "null", "[]", "");
        publish(created(partner, deletedMember, "Del", "Eted", "del@example.com", at("2026-11-01T00:00:00Z")),
                deleted(partner, deletedMember, at("2026-11-02T00:00:00Z")),
                created(partner, memberId, "Sam", "Skip", "sam@example.com", at("2026-11-01T00:00:00Z")));
        publish(denied(partner, memberId, at("2026-11-01T00:00:00Z")), approved(partner, memberId, at("2026-11-03T00:00:00Z")));
        awaitNames(memberId, "Sam");
        awaitBillingStart(memberId);
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_status_changes WHERE member_id = ?",
                UUID.fromString(deletedMember)));
        assertEquals(null, ledgerRow(deletedMember));
        assertEquals(List.of("active@2026-11-01T00:00:00"), timeline(memberId));
        assertEquals(List.of(memberId), summary("2026-11").getList("billableMembers.memberId"));
    }
}

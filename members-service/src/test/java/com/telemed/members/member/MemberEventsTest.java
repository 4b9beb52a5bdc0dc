package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.TIMESTAMP;
import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.put;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** member.events on the real broker: exact envelopes, only committed changes, nothing lost while Kafka is away. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    FakeRequestsService requestsService;

    @Inject
    MemberService members;

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    @Test
    void createPublishesTheExactEnvelopeKeyedByMemberId() {
        String partnerId = newPartner();
        // Every field sent, phone, gender and shipping address included: only names and email reach the bus.
        var created = MemberFixtures.post(partnerId, """
                {"firstName": "Ada", "lastName": "Lovelace", "email": "Ada.L@Example.com", "phone": "+1 555 0100",
                 "dateOfBirth": "1815-12-10", "state": "NY", "gender": "f",
                 "address": {"street1": "1 Main St", "street2": "Apt 2", "city": "Albany", "state": "NY",
                             "zipCode": "12207"},
                 "shippingAddress": {"street1": "9 Dock Rd", "city": "Buffalo", "state": "NY", "zipCode": "14201"}}""")
                .then().statusCode(201).extract();
        String memberId = created.path("member.id");
        String createdAt = created.path("member.createdAt");

        ConsumerRecord<String, String> record = TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, memberId, 1, Duration.ofSeconds(30)).get(0);
        assertEquals(memberId, record.key());
        String id = TopicReader.json(record).get("id").asText();
        assertEquals(id, UUID.fromString(id).toString(), "id is a UUID");
        assertTrue(createdAt.matches(TIMESTAMP), createdAt);
        // Byte for byte: key order, occurredAt format, subject with memberId alone, webhook null, and
        // in data the stored names and email (the email as stored, not lowered), never phone, gender,
        // date of birth or address.
        assertEquals("{\"id\":\"" + id + "\",\"type\":\"member.created\",\"partnerId\":\"" + partnerId + "\","
                + "\"occurredAt\":\"" + createdAt + "\",\"subject\":{\"memberId\":\"" + memberId + "\"},"
                + "\"data\":{\"memberId\":\"" + memberId + "\",\"status\":\"active\",\"firstName\":\"Ada\","
                + "\"lastName\":\"Lovelace\",\"email\":\"Ada.L@Example.com\"},\"webhook\":null}", record.value());
    }

    @Test
    void updatesPublishUpdatedWithChangedFieldsAndStatusChangedOnlyOnARealChange() throws Exception {
        String partnerId = newPartner();
        String memberId = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        String first = put(partnerId, memberId, """
                {"email": "ada.l@example.com", "status": "paused", "phone": null, "firstName": "Ada"}""")
                .then().statusCode(200).extract().path("member.updatedAt");
        put(partnerId, memberId, """
                {"status": "paused", "lastName": "King", "shippingAddress":
                 {"street1": "2 Side St", "city": "Springfield", "state": "CA", "zipCode": "90210"}}""")
                .then().statusCode(200);
        put(partnerId, memberId, "{}").then().statusCode(200);
        put(partnerId, memberId, "{\"status\": \"cancelled\"}").then().statusCode(200);

        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, memberId, 7, Duration.ofSeconds(30));
        assertEquals(List.of("member.created", "member.updated", "member.status_changed", "member.updated",
                "member.updated", "member.updated", "member.status_changed"), TopicReader.types(records));
        List<JsonNode> events = TopicReader.jsons(records);
        List<String> audits = MemberFixtures.auditIdsOf(memberId);
        assertEquals(2, audits.size(), audits.toString());
        // member.updated: the changed fields, then the names and email after the update, changed or not.
        assertEquals(updated(memberId, "[\"email\",\"status\"]", "Ada", "Lovelace", "ada.l@example.com"),
                events.get(1).get("data").toString());
        // member.status_changed: the audit row written for the change.
        assertEquals(statusChanged(memberId, "active", "paused", audits.get(0)), events.get(2).get("data").toString());
        assertEquals(updated(memberId, "[\"lastName\",\"shippingAddress\"]", "Ada", "King", "ada.l@example.com"),
                events.get(3).get("data").toString());
        assertEquals(updated(memberId, "[]", "Ada", "King", "ada.l@example.com"), events.get(4).get("data").toString());
        assertEquals(updated(memberId, "[\"status\"]", "Ada", "King", "ada.l@example.com"), events.get(5).get("data").toString());
        assertEquals(statusChanged(memberId, "paused", "cancelled", audits.get(1)), events.get(6).get("data").toString());
        // One change, one moment: both events of the first update occur at the member's updatedAt.
        assertEquals(first, events.get(1).get("occurredAt").asText());
        assertEquals(first, events.get(2).get("occurredAt").asText());
        var ids = new HashSet<String>();
        for (JsonNode event : events) {
            assertTrue(ids.add(event.get("id").asText()), "ids are unique");
            assertEquals(partnerId, event.get("partnerId").asText());
            assertEquals(JSON.readTree("{\"memberId\":\"" + memberId + "\"}"), event.get("subject"));
            assertTrue(event.has("webhook") && event.get("webhook").isNull());
        }
    }

    /** {@code member.updated} data: exactly these keys, in this order (compared as text). */
    private static String updated(String memberId, String changedFields, String firstName, String lastName,
                                    String email) throws Exception {
        return JSON.readTree("{\"memberId\":\"" + memberId + "\",\"changedFields\":" + changedFields
                + ",\"firstName\":\"" + firstName + "\",\"lastName\":\"" + lastName + "\",\"email\":\"" + email + "\"}")
                .toString();
    }

    /** {@code member.status_changed} data: exactly these keys, in this order (compared as text). */
    private static String statusChanged(String memberId, String previous, String next, String statusChangeId)
            throws Exception {
        return JSON.readTree("{\"memberId\":\"" + memberId + "\",\"previousStatus\":\"" + previous
                + "\",\"newStatus\":\"" + next + "\",\"statusChangeId\":\"" + statusChangeId + "\"}").toString();
    }

    @Test
    void rejectedRolledBackAndRefusedChangesPublishNothing() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        put(partnerId, memberId, "{\"email\": \"not-an-email\"}").then().statusCode(400);
        put(partnerId, memberId, "{\"status\": \"gone\"}").then().statusCode(400);
        put(newPartner(), memberId, "{\"status\": \"paused\"}").then().statusCode(404);
        // A transaction that changed the member and then failed: its events roll back with it.
        // (find-or-create joins the caller's transaction; update commits in one of its own, after
        // its fence to requests-service, so it cannot be rolled back from outside.)
        assertThrows(RuntimeException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            MemberInput inline = MemberFixtures.input(MemberFixtures.memberBody("Ada", "Byron", "ada@example.com"));
            MemberService.FoundOrCreated fenceFirst = members.findOrCreate(partnerId, inline, Optional.empty());
            members.findOrCreate(partnerId, inline, Optional.of(fenceFirst.fence()));
            throw new IllegalStateException("fails after the update");
        }));
        // Deletes refused: the member has requests, or that cannot be known.
        requestsService.hasRequests(partnerId, memberId);
        given().header("X-Partner-Id", partnerId).delete("/v1/members/" + memberId).then().statusCode(400);
        requestsService.failAlways(FakeRequestsService.Failure.NOT_SERVED);
        given().header("X-Partner-Id", partnerId).delete("/v1/members/" + memberId).then().statusCode(503);
        requestsService.reset();
        MemberFixtures.get(partnerId, memberId).then().statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("active"));
        // A committed change afterwards: per-key order means anything earlier would arrive before it.
        put(partnerId, memberId, "{\"firstName\": \"Augusta\"}").then().statusCode(200);

        assertEquals(List.of("member.created", "member.updated"), TopicReader.types(TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, memberId, 2, Duration.ofSeconds(30))));
    }

    @Test
    void deletePublishesMemberDeletedLast() throws Exception {
        String partnerId = newPartner();
        String memberId = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        given().header("X-Partner-Id", partnerId).delete("/v1/members/" + memberId).then().statusCode(204);

        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, memberId, 2, Duration.ofSeconds(30));
        assertEquals(List.of("member.created", "member.deleted"), TopicReader.types(records));
        JsonNode deleted = TopicReader.json(records.get(1));
        assertEquals(JSON.readTree("{\"memberId\":\"" + memberId + "\"}"), deleted.get("data"));
        assertTrue(deleted.get("occurredAt").asText().matches(TIMESTAMP));
    }

    /** THE required one: changes made while Kafka is down arrive once each, in order, when it is back. */
    @Test
    void changesWhileKafkaIsDownArriveExactlyOnceInOrderAfterItReturns() throws Exception {
        String partnerId = newPartner();
        String memberId = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        // The created event is out before the broker goes, so the test is about the outage only.
        TopicReader.types(TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, memberId, 1, Duration.ofSeconds(30)));

        var kafka = InfrastructureResource.running().embeddedKafka();
        kafka.stop();
        List<String> bodies = List.of(
                "{\"status\": \"paused\"}",
                "{\"firstName\": \"Augusta\"}",
                "{\"status\": \"active\"}",
                "{\"phone\": \"555-0100\", \"status\": \"cancelled\"}",
                "{\"state\": \"NY\"}");
        try {
            for (String body : bodies) {
                // Members keep working while the broker is away: only the outbox row is written.
                put(partnerId, memberId, body).then().statusCode(200);
            }
            // The relay tries, and fails, more than once in this window: the member's events all stay in
            // the outbox: the created event went before the broker stopped, the eight of the five updates stay.
            await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM outbox_events WHERE message_key = ?", memberId) == 8);
        } finally {
            kafka.start();
        }

        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, memberId, 9, Duration.ofSeconds(120));
        assertEquals(List.of("member.created",
                "member.updated", "member.status_changed",
                "member.updated",
                "member.updated", "member.status_changed",
                "member.updated", "member.status_changed",
                "member.updated"), TopicReader.types(records));
        List<String> statusChanges = new ArrayList<>();
        List<String> statusChangeIds = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        var ids = new HashSet<String>();
        for (ConsumerRecord<String, String> record : records) {
            JsonNode event = TopicReader.json(record);
            assertTrue(ids.add(event.get("id").asText()), "each event exactly once");
            if (event.get("type").asText().equals("member.status_changed")) {
                statusChanges.add(event.get("data").get("previousStatus").asText() + "->"
                        + event.get("data").get("newStatus").asText());
                statusChangeIds.add(event.get("data").get("statusChangeId").asText());
            } else if (event.get("type").asText().equals("member.updated")) {
                changed.add(event.get("data").get("changedFields").toString());
            }
        }
        assertEquals(List.of("active->paused", "paused->active", "active->cancelled"), statusChanges);
        // Each names the audit row of its change.
        assertEquals(MemberFixtures.auditIdsOf(memberId), statusChangeIds);
        assertEquals(List.of("[\"status\"]", "[\"firstName\"]", "[\"status\"]", "[\"phone\",\"status\"]", "[\"state\"]"),
                changed);
    }
}

package com.telemed.messaging.care;

import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.messaging.message.MessagingEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Decisions on {@code care.events} (as requests-service publishes them) become system messages in
 * the conversation between that member and that prescriber, when it exists, with
 * {@code message.system}; a redelivered event posts nothing more.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class SystemMessageTest {

    @Inject
    MessagingNeighbours neighbours;

    String partnerId;
    String memberId;
    String prescriberId;
    String conversationId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partnerId = newPartner();
        memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        conversationId = conversation(partnerId, memberId, prescriberId);
    }

    private String event(String id, String type, String data, String prescriptionName) {
        return event(id, type, data, prescriptionName, Instant.now());
    }

    private String event(String id, String type, String data, String prescriptionName, Instant occurredAt) {
        String requestId = UUID.randomUUID().toString();
        return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"partnerId\":\"" + partnerId + "\","
                + "\"occurredAt\":\"" + occurredAt + "\",\"subject\":{\"requestId\":\"" + requestId + "\",\"memberId\":\""
                + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"},\"data\":" + data + ",\"webhook\":{\"event\":\"" + type
                + "\",\"requestId\":\"" + requestId + "\",\"status\":\"approved\",\"patientName\":\"Ada Lovelace\","
                + "\"prescriptionName\":\"" + prescriptionName + "\",\"timestamp\":\"2026-11-24T09:30:00.000Z\"}}";
    }

    /** Under one key per test: one partition, so the events are consumed in the order published. */
    private void publish(String... envelopes) {
        TopicWriter.publish(InfrastructureResource.running().kafka().bootstrapServers(), "care.events", memberId, envelopes);
    }

    private List<String> systemTexts(int expected) {
        await().atMost(Duration.ofSeconds(30)).until(() -> systemCount() >= expected);
        return ServiceDatabase.texts("SELECT text FROM messages WHERE conversation_id = ? AND sender_role = 'system' ORDER BY seq",
                UUID.fromString(conversationId));
    }

    private long systemCount() {
        return ServiceDatabase.count("SELECT count(*) FROM messages WHERE conversation_id = ? AND sender_role = 'system'",
                UUID.fromString(conversationId));
    }

    @Test
    void eachDecisionPostsItsSystemMessageAndMessageSystem() {
        publish(event(UUID.randomUUID().toString(), "item.approved", "{}", "Metformin 500 mg"),
                event(UUID.randomUUID().toString(), "item.denied", "{}", "Medication"),
                event(UUID.randomUUID().toString(), "item.consultation_requested", "{}", "Sertraline"),
                event(UUID.randomUUID().toString(), "request.denied", "{\"action\":\"completed_without_rx\"}", "Medication"),
                event(UUID.randomUUID().toString(), "request.approved", "{}", "Finasteride"));

        assertEquals(List.of(
                "Your prescription request for Metformin 500 mg has been approved.",
                "Your prescription request for your medication was not approved.",
                "Your prescriber has requested a consultation about Sertraline before deciding. You will receive a link to book it.",
                "Your visit is complete. No prescription was issued.",
                "Your prescription request for Finasteride has been approved."), systemTexts(5));
        getConversation(partnerId, conversationId).then()
                .body("conversation.unreadByMember", equalTo(5))
                .body("conversation.lastMessageSenderId", equalTo("system"))
                .body("conversation.lastMessagePreview", equalTo("Your prescription request for Finasteride has been approved."));

        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                MessagingEvents.TOPIC, conversationId, 5, Duration.ofSeconds(30));
        assertEquals(List.of("message.system", "message.system", "message.system", "message.system", "message.system"),
                TopicReader.types(records));
        JsonNode webhook = TopicReader.json(records.get(0)).get("webhook");
        assertEquals("{\"event\":\"message.system\",\"memberId\":\"" + memberId + "\",\"messagePreview\":"
                + "\"Your prescription request for Metformin 500 mg has been approved.\",\"conversationId\":\"" + conversationId
                + "\",\"timestamp\":\"" + webhook.get("timestamp").asText() + "\"}", webhook.toString());

        String thread = asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages")
                .then().statusCode(200).extract().path("messages[0].senderName");
        assertEquals("System", thread);
    }

    @Test
    void aRedeliveredEventPostsOnceAndOtherEventsPostNothing() {
        String id = UUID.randomUUID().toString();
        String approved = event(id, "item.approved", "{}", "Metformin");
        publish(approved, approved, event(UUID.randomUUID().toString(), "request.all_approved", "{}", "metformin"),
                event(UUID.randomUUID().toString(), "appointment.consultation_requested", "{}", "x"),
                event(UUID.randomUUID().toString(), "item.canceled", "{}", "metformin"), "not json at all");
        publish(approved);
        // A marker after them, in the same partition order: once it is posted, everything before was consumed.
        String marker = UUID.randomUUID().toString();
        publish(event(marker, "item.denied", "{}", "Marker"));

        assertEquals(List.of("Your prescription request for Metformin has been approved.",
                "Your prescription request for Marker was not approved."), systemTexts(2));
        await().atMost(Duration.ofSeconds(30)).until(() -> ServiceDatabase.count(
                "SELECT count(*) FROM consumed_events WHERE event_id = ?", UUID.fromString(marker)) == 1);
        assertEquals(2, systemCount());
    }

    @Test
    void aDecisionMadeBeforeTheConversationExistedPostsNothingInIt() {
        String early = UUID.randomUUID().toString();
        publish(event(early, "item.approved", "{}", "Metformin", Instant.now().minusSeconds(60)));
        String marker = UUID.randomUUID().toString();
        publish(event(marker, "item.denied", "{}", "Marker"));
        assertEquals(List.of("Your prescription request for Marker was not approved."), systemTexts(1));
        assertEquals(1, ServiceDatabase.count("SELECT count(*) FROM consumed_events WHERE event_id = ?", UUID.fromString(early)));
    }

    @Test
    void noConversationMeansNoMessageAndNoEvent() {
        String otherPrescriber = neighbours.prescriber("Dr. Nobody", "nobody@clinic.example");
        String id = UUID.randomUUID().toString();
        publish(event(id, "item.approved", "{}", "Metformin").replace(prescriberId, otherPrescriber));
        await().atMost(Duration.ofSeconds(30)).until(() -> ServiceDatabase.count(
                "SELECT count(*) FROM consumed_events WHERE event_id = ?", UUID.fromString(id)) == 1);
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id"
                + " WHERE c.partner_id = ?", partnerId));
    }
}

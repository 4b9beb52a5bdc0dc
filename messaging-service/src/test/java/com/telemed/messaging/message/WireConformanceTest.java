package com.telemed.messaging.message;

import static com.telemed.messaging.MessagingFixtures.asOperator;
import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.forMember;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.postText;
import static com.telemed.messaging.MessagingFixtures.prescriberText;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.openapi.WireCheck;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The messaging answers and webhook payloads against the gateway's partner OpenAPI document
 * (issue 22): conversations, messages (text, attachment, prescriber text, handoff), reads and
 * counts, their errors, and the {@code message.new} and {@code message.handoff} payloads.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class WireConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final WireCheck wire = WireCheck.against("partner.yaml");

    @Inject
    MessagingNeighbours neighbours;

    @Test
    void theMessagingAnswersAndEventsConformToThePartnerDocument() throws IOException {
        neighbours.reset();
        String partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String conversationId = conversation(partnerId, memberId, prescriberId);
        String base = "/v1/messages/conversations/";

        wire.answer("get", "/v1/messages/conversations/{id}", 200, getConversation(partnerId, conversationId));
        wire.answer("post", "/v1/messages/conversations", 200, asPartner(partnerId).contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"}").post(base));
        wire.answer("post", "/v1/messages/conversations/{id}/messages", 201, postText(partnerId, conversationId, "Hello"));
        wire.answer("post", "/v1/messages/conversations/{id}/messages", 400, postText(partnerId, conversationId, ""));
        prescriberText(conversationId, "How are you?").then().statusCode(201);
        wire.answer("post", "/v1/messages/conversations/{id}/attachments", 201, asPartner(partnerId)
                .multiPart("file", "scan.pdf", "%PDF-1.4 test".getBytes(), "application/pdf").post(base + conversationId + "/attachments"));
        wire.answer("get", "/v1/messages/conversations/{id}/messages", 200, asPartner(partnerId).get(base + conversationId + "/messages"));
        wire.answer("get", "/v1/messages/conversations/{id}/messages", 400,
                asPartner(partnerId).queryParam("limit", "0").get(base + conversationId + "/messages"));
        wire.answer("get", "/v1/messages/conversations", 200, asPartner(partnerId).queryParam("memberId", memberId).get(base));
        wire.answer("get", "/v1/messages/conversations", 400, asPartner(partnerId).get(base));
        wire.answer("get", "/v1/messages/unread-count", 200, asPartner(partnerId).queryParam("memberId", memberId)
                .get("/v1/messages/unread-count"));
        wire.answer("post", "/v1/messages/conversations/{id}/read", 200, asPartner(partnerId).post(base + conversationId + "/read"));
        wire.answer("get", "/v1/messages/conversations/{id}", 403, getConversation(newPartner(), conversationId));
        wire.answer("post", "/v1/messages/conversations/for-member", 400, asPartner(partnerId).contentType(ContentType.JSON)
                .body("{}").post(base + "for-member"));
        Response found = forMember(partnerId, memberId);
        wire.answer("post", "/v1/messages/conversations/for-member", found.statusCode(), found);

        String patientMessage = postText(partnerId, conversationId, "Where is my order?").then().statusCode(201)
                .extract().path("message.id");
        asOperator().contentType(ContentType.JSON).body("{\"category\":\"orders\",\"note\":\"Please check\"}")
                .post("/ops/v1/conversations/" + conversationId + "/messages/" + patientMessage + "/handoff")
                .then().statusCode(200);

        List<JsonNode> envelopes = TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                MessagingEvents.TOPIC, conversationId, 2, Duration.ofSeconds(30)));
        wire.events(envelopes);
        assertEquals(List.of(), wire.problems());
    }
}

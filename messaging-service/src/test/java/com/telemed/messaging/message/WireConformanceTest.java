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
import com.telemed.testkit.openapi.ApiConformance;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
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
    private static final ApiConformance PARTNER = ApiConformance.of("partner.yaml");

    @Inject
    MessagingNeighbours neighbours;

    private final List<String> problems = new ArrayList<>();

    private void check(String method, String template, int status, Response response) throws IOException {
        assertEquals(status, response.statusCode(), response.asString());
        problems.addAll(PARTNER.response(method, template, status, JSON.readTree(response.asByteArray())));
    }

    @Test
    void theMessagingAnswersAndEventsConformToThePartnerDocument() throws IOException {
        neighbours.reset();
        String partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        String conversationId = conversation(partnerId, memberId, prescriberId);
        String base = "/v1/messages/conversations/";

        check("get", "/v1/messages/conversations/{id}", 200, getConversation(partnerId, conversationId));
        check("post", "/v1/messages/conversations", 200, asPartner(partnerId).contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"}").post(base));
        check("post", "/v1/messages/conversations/{id}/messages", 201, postText(partnerId, conversationId, "Hello"));
        check("post", "/v1/messages/conversations/{id}/messages", 400, postText(partnerId, conversationId, ""));
        prescriberText(conversationId, "How are you?").then().statusCode(201);
        check("post", "/v1/messages/conversations/{id}/attachments", 201, asPartner(partnerId)
                .multiPart("file", "scan.pdf", "%PDF-1.4 test".getBytes(), "application/pdf").post(base + conversationId + "/attachments"));
        check("get", "/v1/messages/conversations/{id}/messages", 200, asPartner(partnerId).get(base + conversationId + "/messages"));
        check("get", "/v1/messages/conversations/{id}/messages", 400,
                asPartner(partnerId).queryParam("limit", "0").get(base + conversationId + "/messages"));
        check("get", "/v1/messages/conversations", 200, asPartner(partnerId).queryParam("memberId", memberId).get(base));
        check("get", "/v1/messages/conversations", 400, asPartner(partnerId).get(base));
        check("get", "/v1/messages/unread-count", 200, asPartner(partnerId).queryParam("memberId", memberId)
                .get("/v1/messages/unread-count"));
        check("post", "/v1/messages/conversations/{id}/read", 200, asPartner(partnerId).post(base + conversationId + "/read"));
        check("get", "/v1/messages/conversations/{id}", 403, getConversation(newPartner(), conversationId));
        check("post", "/v1/messages/conversations/for-member", 400, asPartner(partnerId).contentType(ContentType.JSON)
                .body("{}").post(base + "for-member"));
        Response found = forMember(partnerId, memberId);
        check("post", "/v1/messages/conversations/for-member", found.statusCode(), found);

        String patientMessage = postText(partnerId, conversationId, "Where is my order?").then().statusCode(201)
                .extract().path("message.id");
        asOperator().contentType(ContentType.JSON).body("{\"category\":\"orders\",\"note\":\"Please check\"}")
                .post("/ops/v1/conversations/" + conversationId + "/messages/" + patientMessage + "/handoff")
                .then().statusCode(200);

        List<JsonNode> envelopes = TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                MessagingEvents.TOPIC, conversationId, 2, Duration.ofSeconds(30)));
        for (JsonNode envelope : envelopes) {
            problems.addAll(PARTNER.webhook(envelope.path("type").asText(), envelope.path("webhook")));
        }
        assertEquals(List.of(), problems);
    }
}

package com.telemed.messaging.message;

import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.postText;
import static com.telemed.messaging.MessagingFixtures.prescriberText;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The patient's side of a thread on the partner API: posting text, reading the thread page by page,
 * marking it read, the unread count, and every refusal of the contract.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class PatientMessageTest {

    @Inject
    MessagingNeighbours neighbours;

    String partnerId;
    String memberId;
    String conversationId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partnerId = newPartner();
        memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        conversationId = conversation(partnerId, memberId, neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example"));
    }

    @Test
    void aPatientTextIsStoredVerbatimAndAnsweredWithTheFieldsThatApply() {
        String text = "  <b>Not bold</b>\nSecond line \u00e9\u00e8 \uD83D\uDE00  ";
        JsonPath created = postText(partnerId, conversationId, text).then().statusCode(201).extract().jsonPath();
        assertEquals(List.of("message"), List.copyOf(created.getMap("").keySet()));
        Map<String, Object> message = created.getMap("message");
        assertEquals(List.of("id", "conversationId", "senderId", "senderRole", "senderName", "type", "text", "createdAt"),
                List.copyOf(message.keySet()));
        assertEquals(conversationId, message.get("conversationId"));
        assertEquals(memberId, message.get("senderId"));
        assertEquals("patient", message.get("senderRole"));
        assertEquals("Ada Lovelace", message.get("senderName"));
        assertEquals("text", message.get("type"));
        assertEquals(text, message.get("text"));

        JsonPath thread = asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages")
                .then().statusCode(200).body("messages", hasSize(1)).body("nextCursor", nullValue()).extract().jsonPath();
        Map<String, Object> read = thread.getMap("messages[0]");
        assertEquals(List.of("id", "conversationId", "senderId", "senderRole", "senderName", "type", "text", "html",
                "attachmentUrl", "attachmentName", "attachmentType", "attachmentSize", "handoffCategory", "createdAt"),
                List.copyOf(read.keySet()));
        assertEquals(text, read.get("text"));
        for (String absent : List.of("html", "attachmentUrl", "attachmentName", "attachmentType", "attachmentSize", "handoffCategory")) {
            assertEquals(null, read.get(absent), absent);
        }
        assertEquals(message.get("createdAt"), read.get("createdAt"));
    }

    @Test
    void aPatientTextUpdatesTheConversationAndCountsForThePrescriberOnly() {
        String longText = "x".repeat(79) + "\uD83D\uDE00" + "tail";
        String createdAt = postText(partnerId, conversationId, longText).then().statusCode(201).extract().path("message.createdAt");
        postText(partnerId, conversationId, "second").then().statusCode(201);

        JsonPath conversation = getConversation(partnerId, conversationId).then().statusCode(200).extract().jsonPath();
        assertEquals("second", conversation.getString("conversation.lastMessagePreview"));
        assertEquals(memberId, conversation.getString("conversation.lastMessageSenderId"));
        assertEquals(2, conversation.getInt("conversation.unreadByPrescriber"));
        assertEquals(0, conversation.getInt("conversation.unreadByMember"));
        assertEquals(conversation.getString("conversation.lastMessageAt"), conversation.getString("conversation.updatedAt"));

        // 80 characters, except that a surrogate pair is never cut in half.
        String other = conversation(partnerId, memberId, neighbours.prescriber("Dr. Two", "two@clinic.example"));
        postText(partnerId, other, longText).then().statusCode(201);
        getConversation(partnerId, other).then().body("conversation.lastMessagePreview", equalTo("x".repeat(79)));
        String exact = "y".repeat(100);
        postText(partnerId, other, exact).then().statusCode(201);
        getConversation(partnerId, other).then().body("conversation.lastMessagePreview", equalTo("y".repeat(80)));
        assertNotNull(createdAt);
    }

    @Test
    void theTextMustBeOneTo5000Characters() {
        refused("{}", "Message text is required");
        refused("{\"text\":\"\"}", "Message text is required");
        refused("{\"text\":null}", "Message text is required");
        refused("{\"text\":42}", "Message text is required");
        refused(com.telemed.messaging.MessagingFixtures.textBody("z".repeat(5001)), "Message too long");
        postText(partnerId, conversationId, "z".repeat(5000)).then().statusCode(201);
        asPartner(partnerId).contentType(ContentType.JSON).body("{\"text\":").post(messages(conversationId))
                .then().statusCode(400).body("error", equalTo("Invalid JSON"));
        assertEquals(1, ServiceDatabase.count("SELECT count(*) FROM messages WHERE conversation_id = ?", UUID.fromString(conversationId)));
    }

    private void refused(String body, String error) {
        asPartner(partnerId).contentType(ContentType.JSON).body(body).post(messages(conversationId))
                .then().statusCode(400).body("error", equalTo(error));
    }

    @Test
    void anotherPartnersConversationIsForbiddenAndAnUnknownOneNotFound() {
        String other = newPartner();
        for (String id : List.of(conversationId)) {
            postText(other, id, "hi").then().statusCode(403).body("error", equalTo("Conversation does not belong to this partner"));
            asPartner(other).get(messages(id)).then().statusCode(403).body("error", equalTo("Conversation does not belong to this partner"));
            asPartner(other).post("/v1/messages/conversations/" + id + "/read").then().statusCode(403)
                    .body("error", equalTo("Conversation does not belong to this partner"));
        }
        String unknown = UUID.randomUUID().toString();
        postText(partnerId, unknown, "hi").then().statusCode(404).body("error", equalTo("Conversation not found"));
        asPartner(partnerId).get(messages(unknown)).then().statusCode(404).body("error", equalTo("Conversation not found"));
        asPartner(partnerId).post("/v1/messages/conversations/" + unknown + "/read").then().statusCode(404)
                .body("error", equalTo("Conversation not found"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM messages WHERE conversation_id = ?", UUID.fromString(conversationId)));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM mail_outbox WHERE body LIKE '%' || ? || '%'", conversationId));
    }

    @Test
    void theCursorPagesThroughTheThreadOldestFirstWithoutGapsOrRepeats() {
        List<String> posted = new ArrayList<>();
        for (int index = 0; index < 5; index++) {
            posted.add(postText(partnerId, conversationId, "message " + index).then().statusCode(201).extract().path("message.id"));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = asPartner(partnerId).queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get(messages(conversationId)).then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("messages.id"));
            cursor = page.getString("nextCursor");
            pages++;
            if (pages == 1) {
                // A message posted while paging comes on a later page.
                posted.add(postText(partnerId, conversationId, "late").then().statusCode(201).extract().path("message.id"));
            }
        } while (cursor != null);
        assertEquals(posted, seen);
        assertEquals(3, pages);

        asPartner(partnerId).get(messages(conversationId)).then().statusCode(200).body("messages", hasSize(6))
                .body("nextCursor", nullValue());
    }

    @Test
    void limitAndCursorAreChecked() {
        for (String limit : List.of("0", "101", "abc", "1.5", "-1", "")) {
            asPartner(partnerId).queryParam("limit", limit).get(messages(conversationId)).then().statusCode(400)
                    .body("error", equalTo("limit must be an integer between 1 and 100"));
        }
        asPartner(partnerId).queryParam("limit", 100).get(messages(conversationId)).then().statusCode(200);
        for (String cursor : List.of("nope", "YWZ0ZXI6MA", "YWZ0ZXI6LTE", "%%%")) {
            asPartner(partnerId).queryParam("cursor", cursor).get(messages(conversationId)).then().statusCode(400)
                    .body("error", equalTo("Invalid cursor"));
        }
    }

    @Test
    void readResetsOnlyTheMembersCounterAndTheUnreadCountAddsUpTheirConversations() {
        prescriberText(conversationId, "one").then().statusCode(201);
        prescriberText(conversationId, "two").then().statusCode(201);
        String other = conversation(partnerId, memberId, neighbours.prescriber("Dr. Two", "two@clinic.example"));
        prescriberText(other, "three").then().statusCode(201);
        postText(partnerId, conversationId, "from the patient").then().statusCode(201);

        unreadCount(memberId).then().statusCode(200).body("unreadCount", equalTo(3));
        asPartner(partnerId).post("/v1/messages/conversations/" + conversationId + "/read").then().statusCode(200)
                .body("success", equalTo(true));
        getConversation(partnerId, conversationId).then()
                .body("conversation.unreadByMember", equalTo(0))
                .body("conversation.unreadByPrescriber", equalTo(1));
        unreadCount(memberId).then().statusCode(200).body("unreadCount", equalTo(1));

        // Only the member's conversations with this partner count; nobody else's.
        asPartner(newPartner()).queryParam("memberId", memberId).get("/v1/messages/unread-count").then().statusCode(200)
                .body("unreadCount", equalTo(0));
        asPartner(partnerId).get("/v1/messages/unread-count").then().statusCode(400)
                .body("error", equalTo("memberId query parameter is required"));
        asPartner(partnerId).queryParam("memberId", "").get("/v1/messages/unread-count").then().statusCode(400)
                .body("error", equalTo("memberId query parameter is required"));
    }

    private io.restassured.response.Response unreadCount(String member) {
        return asPartner(partnerId).queryParam("memberId", member).get("/v1/messages/unread-count");
    }

    private static String messages(String conversation) {
        return "/v1/messages/conversations/" + conversation + "/messages";
    }
}

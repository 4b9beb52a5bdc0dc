package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.ReceivedMail;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Messaging end to end, as a partner and a prescriber console use it through the gateway, against
 * the real services: a member's request approved, the conversation found by member, the patient's
 * message (mailed to the prescriber through the embedded SMTP server), the prescriber's reply
 * ({@code message.new}), a handoff ({@code message.handoff}), an attachment uploaded and downloaded
 * byte for byte without a key, and a later approval posting a system message
 * ({@code message.system}); the partner's receiver gets the three message events, signed.
 */
@ExtendWith(RunningPlatform.class)
class MessagingThroughGatewayIT {

    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    private RunningPlatform.Handle platform;
    private String apiKey;

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner() {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey);
    }

    private String approvedRequest(String drugId, String email, String prescriberId) {
        String requestId = partner().contentType(ContentType.JSON).body("""
                        {"caseNotes": "e2e", "items": [{"drugId": "%s", "dosage": "1 mg"}],
                         "member": {"firstName": "Katherine", "lastName": "Johnson", "email": "%s",
                                    "dateOfBirth": "1918-08-26", "state": "VA",
                                    "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}}"""
                        .formatted(drugId, email))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        String itemId = partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve").then().statusCode(200);
        return requestId;
    }

    @Test
    void aPatientAndAPrescriberTalkAndThePartnerHearsOfIt(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            JsonPath created = ops().body(Map.of("name", "Messaging E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = created.getString("partner.id");
            apiKey = created.getString("apiKey");
            String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook")
                    .then().statusCode(200).extract().path("secret");
            String drugId = "msg-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            ops().body("""
                            {"name": "Finasteride E2E", "classification": "non-controlled",
                             "skus": [{"label": "1 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                    .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
            String prescriberEmail = "vaughan." + UUID.randomUUID() + "@clinic.example";
            String prescriberId = ops().body(Map.of("name", "Dr Vaughan", "email", prescriberEmail))
                    .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
            String memberEmail = "katherine." + UUID.randomUUID() + "@example.com";

            // A request approved: the prescriber is now the member's.
            String requestId = approvedRequest(drugId, memberEmail, prescriberId);
            String memberId = partner().get("/v1/requests/" + requestId).then().extract().path("memberId");

            JsonPath conversation = partner().contentType(ContentType.JSON).body(Map.of("memberId", memberId))
                    .post("/v1/messages/conversations/for-member").then().statusCode(201)
                    .body("created", equalTo(true))
                    .body("conversation.prescriberId", equalTo(prescriberId))
                    .body("conversation.prescriberName", equalTo("Dr Vaughan"))
                    .body("conversation.memberName", equalTo("Katherine Johnson"))
                    .body("conversation.partnerId", equalTo(partnerId))
                    .extract().jsonPath();
            String conversationId = conversation.getString("conversation.id");
            partner().contentType(ContentType.JSON).body(Map.of("memberId", memberId))
                    .post("/v1/messages/conversations/for-member").then().statusCode(200).body("created", equalTo(false))
                    .body("conversation.id", equalTo(conversationId));

            // The patient writes; the prescriber is mailed the text, the partner gets no webhook.
            String patientText = "My refill ran out on Sunday. Can I take two tablets tomorrow?";
            String patientMessageId = partner().contentType(ContentType.JSON).body(Map.of("text", patientText))
                    .post("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(201)
                    .body("message.senderRole", equalTo("patient")).body("message.senderName", equalTo("Katherine Johnson"))
                    .extract().path("message.id");
            EmbeddedMailServer mail = (EmbeddedMailServer) platform.infrastructure().mail();
            // Longer than one send attempt (messaging.mail.send-timeout, 30 s) and its retry: an attempt that
            // hangs is given up and sent again by design (mail.MailRelay), and has been seen to, now and then.
            ReceivedMail delivered = await("the prescriber's mail").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> mail.received().stream().filter(m -> m.recipients().contains(prescriberEmail)).findFirst(),
                            found -> found.isPresent()).get();
            assertEquals("New message from Katherine Johnson", delivered.subject());
            assertTrue(delivered.text().contains(patientText), delivered.text());

            // The prescriber replies and hands the question to the partner's support team.
            String reply = "Please do not double the dose. Your pharmacy will contact you.";
            ops().body(Map.of("text", reply)).post("/ops/v1/conversations/" + conversationId + "/prescriber-messages")
                    .then().statusCode(201).body("message.senderRole", equalTo("prescriber"));
            ops().body(Map.of("category", "orders", "note", "Refill timing"))
                    .post("/ops/v1/conversations/" + conversationId + "/messages/" + patientMessageId + "/handoff")
                    .then().statusCode(200).body("message.handoffCategory", equalTo("orders"));

            // An attachment, downloaded through the gateway without a key, byte for byte.
            byte[] scan = new byte[2 * 1024 * 1024 + 5];
            new Random(16).nextBytes(scan);
            String url = partner().multiPart("file", "rash.png", scan, "image/png")
                    .post("/v1/messages/conversations/" + conversationId + "/attachments").then().statusCode(201)
                    .body("message.type", equalTo("attachment"))
                    .body("message.attachmentSize", equalTo(scan.length))
                    .body("message.attachmentUrl", matchesPattern(".*/attachments/[A-Za-z0-9_-]{43}/rash\\.png"))
                    .extract().path("message.attachmentUrl");
            var download = given().urlEncodingEnabled(false).get(url);
            assertEquals(200, download.statusCode());
            assertEquals("image/png", download.contentType());
            assertArrayEquals(scan, download.asByteArray());

            // A later approval by the same prescriber: a system message in the existing conversation.
            approvedRequest(drugId, memberEmail, prescriberId);

            List<Received> system = receiver.await("message.system", 1, Duration.ofSeconds(30));
            List<Received> fresh = receiver.await("message.new", 1, Duration.ofSeconds(30));
            List<Received> handoff = receiver.await("message.handoff", 1, Duration.ofSeconds(30));
            for (Received delivery : List.of(system.get(0), fresh.get(0), handoff.get(0))) {
                WebhookReceiver.assertSigned(delivery, secret);
            }
            assertPayload(system.get(0).json(), "event", "message.system", "memberId", memberId,
                    "messagePreview", "Your prescription request for Finasteride E2E has been approved.", "conversationId", conversationId);
            assertPayload(fresh.get(0).json(), "event", "message.new", "memberId", memberId, "prescriberName", "Dr Vaughan",
                    "messagePreview", reply, "conversationId", conversationId);
            assertPayload(handoff.get(0).json(), "event", "message.handoff", "memberId", memberId, "conversationId", conversationId,
                    "messageId", patientMessageId, "text", patientText, "category", "orders", "prescriberName", "Dr Vaughan",
                    "note", "Refill timing");

            // What the partner's inbox reads: five messages, oldest first, and the counters.
            partner().get("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(200)
                    .body("messages.senderRole", equalTo(List.of("patient", "prescriber", "system", "patient", "system")))
                    .body("messages[0].handoffCategory", equalTo("orders"))
                    .body("nextCursor", equalTo(null));
            partner().queryParam("memberId", memberId).get("/v1/messages/unread-count").then().statusCode(200)
                    .body("unreadCount", equalTo(3));
            partner().post("/v1/messages/conversations/" + conversationId + "/read").then().statusCode(200);
            partner().queryParam("memberId", memberId).get("/v1/messages/unread-count").then().body("unreadCount", equalTo(0));
            // No webhook for anything the partner sent: exactly one event of each kind.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> receiver.received().stream().filter(post -> post.event().startsWith("message.")).count() == 3);
        }
    }
}

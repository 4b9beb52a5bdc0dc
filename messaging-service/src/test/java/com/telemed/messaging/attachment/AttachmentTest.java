package com.telemed.messaging.attachment;

import static com.telemed.messaging.MessagingFixtures.asOperator;
import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.messaging.message.MessagingEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.EncoderConfig;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.MultiPartConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.http.entity.mime.HttpMultipartMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attachments: the upload (one part named {@code file}, at most 10 MB, the contract's types), the
 * message it makes, and the link that downloads the exact bytes without a key.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class AttachmentTest {

    static final int TEN_MB = 10 * 1024 * 1024;

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

    /** As a browser sends a form: the file name's UTF-8 bytes as they are in the part's header. */
    private Response upload(String partner, String conversation, String name, byte[] bytes, String type) {
        return asPartner(partner)
                .config(RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
                        .httpMultipartMode(HttpMultipartMode.BROWSER_COMPATIBLE)).multiPartConfig(MultiPartConfig.multiPartConfig()
                        .defaultCharset("UTF-8")))
                .multiPart("file", name, bytes, type).post("/v1/messages/conversations/" + conversation + "/attachments");
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** The link's path: the service answers it as the gateway forwards it. */
    private static Response download(String url) {
        return asOperator().urlEncodingEnabled(false).get(URI.create(url).getRawPath());
    }

    @Test
    void anUploadBecomesAnAttachmentMessageWhoseLinkDownloadsTheExactBytes() {
        byte[] bytes = random(3 * 1024 * 1024 + 17, 1);
        JsonPath created = upload(partnerId, conversationId, "Lab results é 1.pdf", bytes, "application/pdf")
                .then().statusCode(201).extract().jsonPath();
        Map<String, Object> message = created.getMap("message");
        assertEquals(List.of("id", "conversationId", "senderId", "senderRole", "senderName", "type", "text", "attachmentUrl",
                "attachmentName", "attachmentType", "attachmentSize", "createdAt"), List.copyOf(message.keySet()));
        assertEquals("attachment", message.get("type"));
        assertEquals("patient", message.get("senderRole"));
        assertEquals(memberId, message.get("senderId"));
        assertEquals("Lab results é 1.pdf", message.get("text"));
        assertEquals("Lab results é 1.pdf", message.get("attachmentName"));
        assertEquals("application/pdf", message.get("attachmentType"));
        assertEquals(bytes.length, message.get("attachmentSize"));
        String url = (String) message.get("attachmentUrl");
        assertTrue(url.matches("http://localhost:8080/attachments/[A-Za-z0-9_-]{43}/Lab%20results%20%C3%A9%201\\.pdf"), url);

        Response file = download(url);
        assertEquals(200, file.statusCode());
        assertEquals("application/pdf", file.contentType());
        assertEquals(String.valueOf(bytes.length), file.header("Content-Length"));
        assertEquals("attachment; filename=\"Lab results _ 1.pdf\"; filename*=UTF-8''Lab%20results%20%C3%A9%201.pdf",
                file.header("Content-Disposition"));
        assertEquals("nosniff", file.header("X-Content-Type-Options"));
        // Issue #38: the link is a credential and the file patient data; no cache keeps either.
        assertEquals("no-store", file.header("Cache-Control"));
        assertArrayEquals(bytes, file.asByteArray());

        getConversation(partnerId, conversationId).then()
                .body("conversation.lastMessagePreview", equalTo("\uD83D\uDCCE Lab results é 1.pdf"))
                .body("conversation.unreadByPrescriber", equalTo(1))
                .body("conversation.unreadByMember", equalTo(0));
        asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(200)
                .body("messages[0].attachmentUrl", equalTo(url))
                .body("messages[0].attachmentSize", equalTo(bytes.length))
                .body("messages[0].html", equalTo(null));
        // Attachments are not mailed.
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM mail_outbox WHERE body LIKE '%' || ? || '%'", conversationId));
    }

    @Test
    void exactlyTenMegabytesIsTakenAndOneByteMoreIsRefusedWithNothingStored() {
        byte[] limit = random(TEN_MB, 2);
        String url = upload(partnerId, conversationId, "max.png", limit, "image/png").then().statusCode(201)
                .body("message.attachmentSize", equalTo(TEN_MB)).extract().path("message.attachmentUrl");
        assertArrayEquals(limit, download(url).asByteArray());

        long attachments = ServiceDatabase.count("SELECT count(*) FROM attachments");
        long chunks = ServiceDatabase.count("SELECT count(*) FROM file_chunks");
        long messages = ServiceDatabase.count("SELECT count(*) FROM messages");
        upload(partnerId, conversationId, "over.png", random(TEN_MB + 1, 3), "image/png").then().statusCode(413)
                .body("error", equalTo("File too large"));
        assertEquals(attachments, ServiceDatabase.count("SELECT count(*) FROM attachments"));
        assertEquals(chunks, ServiceDatabase.count("SELECT count(*) FROM file_chunks"));
        assertEquals(messages, ServiceDatabase.count("SELECT count(*) FROM messages"));
        getConversation(partnerId, conversationId).then().body("conversation.unreadByPrescriber", equalTo(1));
    }

    @Test
    void theTypeAndThePartAreChecked() {
        upload(partnerId, conversationId, "a.zip", new byte[] {1, 2}, "application/zip").then().statusCode(400)
                .body("error", equalTo("File type application/zip not allowed"));
        upload(partnerId, conversationId, "notes.txt", "hello".getBytes(), "Text/Plain; charset=UTF-8").then().statusCode(201)
                .body("message.attachmentType", equalTo("text/plain"));
        asPartner(partnerId).multiPart("document", "a.pdf", new byte[] {1}, "application/pdf")
                .post("/v1/messages/conversations/" + conversationId + "/attachments")
                .then().statusCode(400).body("error", equalTo("No file uploaded"));
        asPartner(partnerId).contentType("application/json").body("{}").post("/v1/messages/conversations/" + conversationId + "/attachments")
                .then().statusCode(415).body("error", equalTo("Unsupported Media Type"));
        for (String type : List.of("image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf", "application/msword",
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "text/plain")) {
            upload(partnerId, conversationId, "f", new byte[] {7}, type).then().statusCode(201).body("message.attachmentType", equalTo(type));
        }
    }

    /**
     * Issue #38 (the bad-input property, extended to uploads): multipart bodies Quarkus REST's parser
     * cannot read were answered {@code 500 Internal Server Error}: a boundary other than the one the
     * Content-Type names, a body cut before its closing delimiter, part headers that are no headers
     * (an IOException or MalformedMessageException), an empty boundary parameter (an index out of
     * bounds), more parts than the form takes (a bare RuntimeException). No file can be read from
     * them: 400 No file uploaded, for the patient's upload and the prescriber's, and nothing stored.
     */
    @Test
    void aMultipartBodyThatCannotBeReadIsRefusedAsHavingNoFile() {
        String part = "--real\r\nContent-Disposition: form-data; name=\"file\"; filename=\"note.pdf\"\r\n"
                + "Content-Type: application/pdf\r\n\r\n%PDF-1.4\r\n";
        String whole = part + "--real--\r\n";
        String manyParts = "--real\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n".repeat(2_001) + whole;
        long attachments = ServiceDatabase.count("SELECT count(*) FROM attachments");
        for (String path : List.of("/v1/messages/conversations/" + conversationId + "/attachments",
                "/ops/v1/conversations/" + conversationId + "/prescriber-attachments")) {
            for (List<String> unreadable : List.of(List.of("boundary=other", whole), List.of("boundary=real", part),
                    List.of("boundary=real", "--real\r\nno header here\r\n\r\nx\r\n--real--\r\n"), List.of("boundary=", whole),
                    List.of("boundary=real", manyParts))) {
                rawMultipart(unreadable.get(0), unreadable.get(1), path).then().statusCode(400)
                        .body("error", equalTo("No file uploaded"));
            }
            // The same body with the boundary it names is taken.
            rawMultipart("boundary=real", whole, path).then().statusCode(201).body("message.attachmentName", equalTo("note.pdf"));
        }
        assertEquals(attachments + 2, ServiceDatabase.count("SELECT count(*) FROM attachments"));
    }

    /** {@code body} sent as it is, with {@code Content-Type: multipart/form-data; <parameter>}. */
    private Response rawMultipart(String parameter, String body, String path) {
        return (path.startsWith("/ops/") ? asOperator() : asPartner(partnerId))
                .config(RestAssuredConfig.config().encoderConfig(EncoderConfig.encoderConfig()
                        .appendDefaultContentCharsetToContentTypeIfUndefined(false)))
                .contentType("multipart/form-data; " + parameter)
                .body(body.getBytes(StandardCharsets.UTF_8)).post(path);
    }

    @Test
    void anotherPartnersConversationIsForbiddenAndAnUnknownLinkNotFound() {
        long attachments = ServiceDatabase.count("SELECT count(*) FROM attachments");
        upload(newPartner(), conversationId, "a.pdf", new byte[] {1}, "application/pdf").then().statusCode(403)
                .body("error", equalTo("Conversation does not belong to this partner"));
        upload(partnerId, UUID.randomUUID().toString(), "a.pdf", new byte[] {1}, "application/pdf").then().statusCode(404)
                .body("error", equalTo("Conversation not found"));
        assertEquals(attachments, ServiceDatabase.count("SELECT count(*) FROM attachments"));
        download("http://localhost:8080/attachments/" + "A".repeat(43) + "/a.pdf").then().statusCode(404)
                .body("error", equalTo("Attachment not found"));
    }

    /**
     * Issue #38: a read of the database (or of a backup) yields no working link. No column of the
     * attachment's row holds the link's token, as text or as bytes; the link downloads; and a token
     * made from anything the row stores is an unknown link, answered as one.
     */
    @Test
    void noColumnHoldsTheLinksTokenAndNothingStoredMakesOne() throws Exception {
        byte[] bytes = random(1000, 4);
        String url = upload(partnerId, conversationId, "scan.png", bytes, "image/png").then().statusCode(201)
                .extract().path("message.attachmentUrl");
        String token = url.split("/")[4];
        List<Map<String, Object>> rows = ServiceDatabase.rows("SELECT * FROM attachments WHERE conversation_id = ?",
                UUID.fromString(conversationId));
        assertEquals(1, rows.size());
        Map<String, Object> row = rows.get(0);
        byte[] tokenText = token.getBytes(StandardCharsets.UTF_8);
        byte[] tokenBytes = Base64.getUrlDecoder().decode(token);
        row.forEach((column, value) -> {
            if (value instanceof byte[] stored) {
                assertFalse(Arrays.equals(stored, tokenText) || Arrays.equals(stored, tokenBytes), column + " holds the link's token");
            } else {
                assertFalse(String.valueOf(value).contains(token), column + " holds the link's token");
            }
        });
        assertArrayEquals(bytes, download(url).asByteArray());

        UUID id = (UUID) row.get("id");
        List<String> made = new ArrayList<>(List.of(base64url(concat(uuidBytes(id), new byte[16])),
                base64url(concat(uuidBytes(id), uuidBytes(id))), base64url(sha256(id.toString().getBytes(StandardCharsets.UTF_8)))));
        for (Object value : row.values()) {
            byte[] stored = value instanceof byte[] raw ? raw : String.valueOf(value).getBytes(StandardCharsets.UTF_8);
            made.add(base64url(sha256(stored)));
            if (stored.length == 32) {
                made.add(base64url(stored));
            }
        }
        for (String forged : made) {
            assertNotEquals(token, forged);
            download(url.replace(token, forged)).then().statusCode(404).body("error", equalTo("Attachment not found"));
        }
        download(url.replace(token, token.substring(1))).then().statusCode(404).body("error", equalTo("Attachment not found"));
    }

    /**
     * A link handed out before issue #38, whose token the row held as text until migration V4
     * replaced it by its SHA-256 (AttachmentLinkMigrationTest), still downloads; the answers now
     * show the key-derived link, which downloads the same file.
     */
    @Test
    void aLinkFromBeforeTheMigrationStillDownloads() throws Exception {
        byte[] bytes = random(2000, 5);
        String current = upload(partnerId, conversationId, "old.pdf", bytes, "application/pdf").then().statusCode(201)
                .extract().path("message.attachmentUrl");
        byte[] random = new byte[32];
        new Random(6).nextBytes(random);
        String oldToken = base64url(random);
        assertEquals(1, ServiceDatabase.update("UPDATE attachments SET legacy_token_hash = ? WHERE conversation_id = ?",
                sha256(oldToken.getBytes(StandardCharsets.UTF_8)), UUID.fromString(conversationId)));
        String old = current.replace(current.split("/")[4], oldToken);

        Response file = download(old);
        assertEquals(200, file.statusCode());
        assertEquals("no-store", file.header("Cache-Control"));
        assertArrayEquals(bytes, file.asByteArray());
        asPartner(partnerId).get("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(200)
                .body("messages[0].attachmentUrl", equalTo(current));
        assertArrayEquals(bytes, download(current).asByteArray());
        download(old.replace(oldToken, base64url(sha256(oldToken.getBytes(StandardCharsets.UTF_8))))).then().statusCode(404)
                .body("error", equalTo("Attachment not found"));
    }

    static String base64url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static byte[] sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }

    private static byte[] uuidBytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    @Test
    void aPrescribersAttachmentCountsForTheMemberAndSendsNoWebhook() {
        asOperator().multiPart("file", "plan.pdf", new byte[] {1, 2, 3}, "application/pdf")
                .post("/ops/v1/conversations/" + conversationId + "/prescriber-attachments")
                .then().statusCode(201).body("message.senderRole", equalTo("prescriber")).body("message.type", equalTo("attachment"));
        getConversation(partnerId, conversationId).then().body("conversation.unreadByMember", equalTo(1))
                .body("conversation.lastMessagePreview", equalTo("\uD83D\uDCCE plan.pdf"));
        assertEquals(0, TopicReader.readKey(TopicReader.configuredBootstrapServers(), MessagingEvents.TOPIC, conversationId, 0,
                Duration.ofSeconds(5)).size());
    }
}

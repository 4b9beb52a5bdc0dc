package com.telemed.messaging.message;

import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.http.RawSockets;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue #38: nothing bounded the uploads in flight, each written to disk as it arrives, so enough of
 * them (one partner's, or all together) could fill the messaging pod's upload volume. Here at most
 * three at once and two of one partner's ({@link MessagingNeighboursResource}); one more is {@code 429}
 * with {@code Retry-After} before its body is read, and a slot comes back when its upload ends,
 * however it ends.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class UploadSlotsTest {

    @Inject
    MessagingNeighbours neighbours;

    @Inject
    UploadSlots slots;

    @Test
    void uploadsPastThePartnersOrTheTotalBoundAreRefusedUntilASlotComesBack() throws Exception {
        neighbours.reset();
        String first = newPartner();
        String second = newPartner();
        String firstConversation = conversation(first, neighbours.member(first, "Ada", "Lovelace", "ada@example.com"),
                neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example"));
        String secondConversation = conversation(second, neighbours.member(second, "Alan", "Turing", "alan@example.com"),
                neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example"));
        List<Socket> held = new ArrayList<>();
        try {
            held.add(unfinishedUpload(first, firstConversation));
            held.add(unfinishedUpload(first, firstConversation));
            await().atMost(Duration.ofSeconds(10)).until(() -> slots.inFlight() == 2);
            assertTooMany(upload(first, firstConversation));

            held.add(unfinishedUpload(second, secondConversation));
            await().atMost(Duration.ofSeconds(10)).until(() -> slots.inFlight() == 3);
            assertTooMany(upload(second, secondConversation));
            assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM messages WHERE conversation_id = ?::uuid AND type = 'attachment'",
                    secondConversation), "a refused upload stores nothing");

            // A client that goes away mid-upload gives its slot back.
            held.remove(0).close();
            await().atMost(Duration.ofSeconds(10)).until(() -> slots.inFlight() == 2);
            upload(first, firstConversation).then().statusCode(201);
            // A finished upload gives its slot back (once its answer has ended: just after the client has it).
            await().atMost(Duration.ofSeconds(10)).until(() -> slots.inFlight() == 2);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> slots.inFlight() == 0);
        upload(second, secondConversation).then().statusCode(201);
    }

    private static Response upload(String partnerId, String conversationId) {
        return asPartner(partnerId).multiPart("file", "note.pdf", "%PDF-1.4 a note".getBytes(StandardCharsets.US_ASCII), "application/pdf")
                .post("/v1/messages/conversations/" + conversationId + "/attachments");
    }

    private static void assertTooMany(Response refused) {
        assertEquals(429, refused.statusCode(), refused.asString());
        assertEquals("{\"error\":\"Too Many Requests\"}", refused.asString());
        assertEquals("5", refused.header("Retry-After"));
    }

    /** A signed upload whose client sent its head and the first bytes of a 1 MB body, and then nothing. */
    private static Socket unfinishedUpload(String partnerId, String conversationId) throws IOException {
        String path = "/v1/messages/conversations/" + conversationId + "/attachments";
        StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n")
                .append("Content-Type: multipart/form-data; boundary=b0undary\r\nContent-Length: 1048576\r\n")
                .append("X-Partner-Id: ").append(partnerId).append("\r\n");
        TestServiceProofs.headers(SignedQuarkusTests.applicationKey(), "POST", path, partnerId)
                .forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\n")
                .append("Content-Type: application/pdf\r\n\r\n%PDF-1.4 ");
        Socket socket = RawSockets.connect(RestAssured.port, 0);
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }
}

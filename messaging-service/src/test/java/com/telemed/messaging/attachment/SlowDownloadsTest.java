package com.telemed.messaging.attachment;

import static com.telemed.messaging.MessagingFixtures.asPartner;
import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.getConversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.http.RawSockets;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Issue #38 (High): a download held one of the pool's connections for the whole file, while the
 * client read it, so as many stalled readers of any link as the pool has connections stopped the
 * service for every partner. Each chunk is now read on a connection of its own, given back before
 * the chunk is written out.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class SlowDownloadsTest {

    /** Larger than what the sockets' buffers and the HTTP layer's write queue take: a reader that stalls stalls the writer. */
    private static final int FILE_BYTES = 4 * 1024 * 1024 + 3;

    @Inject
    MessagingNeighbours neighbours;

    @Test
    void asManyStalledDownloadsAsThePoolHasConnectionsLeaveAConversationReadAnswering() throws Exception {
        neighbours.reset();
        String partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        String conversationId = conversation(partnerId, memberId, neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example"));
        byte[] bytes = new byte[FILE_BYTES];
        new Random(38).nextBytes(bytes);
        String url = asPartner(partnerId).multiPart("file", "scan.pdf", bytes, "application/pdf")
                .post("/v1/messages/conversations/" + conversationId + "/attachments")
                .then().statusCode(201).extract().path("message.attachmentUrl");
        String path = URI.create(url).getRawPath();

        int poolSize = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.max-size", Integer.class);
        Duration acquisition = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.acquisition-timeout", Duration.class);
        List<Socket> readers = new ArrayList<>();
        try {
            // Each reader takes the first byte of the answer (so its download is under way on the
            // service) and then reads nothing: with a 4 KiB receive buffer the service's writes stop.
            for (int i = 0; i < poolSize; i++) {
                readers.add(stalledReader(path, bytes[0]));
            }
            long started = System.nanoTime();
            Response read = getConversation(partnerId, conversationId);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(200, read.statusCode(), read.asString());
            assertEquals(conversationId, read.path("conversation.id"));
            // Held connections would make it wait for the pool's acquisition timeout, then fail.
            assertTrue(millis < acquisition.toMillis(), "the conversation read took " + millis + " ms beside "
                    + poolSize + " stalled downloads (the pool's acquisition timeout is " + acquisition.toMillis() + " ms)");
            // Every stalled download goes on when its reader does, to the exact last byte.
            for (Socket reader : readers) {
                assertArrayEquals(bytes, rest(reader.getInputStream(), FILE_BYTES - 1, bytes[0]));
            }
        } finally {
            for (Socket reader : readers) {
                reader.close();
            }
        }
    }

    /** A GET of the link, signed as the gateway signs it, whose reader took the answer's head and first byte. */
    private static Socket stalledReader(String path, byte expectedFirst) throws IOException {
        Socket socket = RawSockets.connect(RestAssured.port, 4096);
        StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
        TestServiceProofs.headers(SignedQuarkusTests.applicationKey(), "GET", path, null)
                .forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        OutputStream out = socket.getOutputStream();
        out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        String head = RawSockets.head(in);
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
        assertTrue(head.toLowerCase().contains("\r\ncontent-length: " + FILE_BYTES + "\r\n"), head);
        assertEquals(expectedFirst & 0xff, in.read(), "the body's first byte");
        return socket;
    }


    /** The first byte, then the {@code remaining} ones read now. */
    private static byte[] rest(InputStream in, int remaining, byte expectedFirst) throws IOException {
        byte[] all = new byte[remaining + 1];
        all[0] = expectedFirst;
        int at = 1;
        while (at < all.length) {
            int n = in.read(all, at, all.length - at);
            if (n < 0) {
                throw new IOException("the download ended after " + at + " of " + all.length + " bytes");
            }
            at += n;
        }
        return all;
    }
}

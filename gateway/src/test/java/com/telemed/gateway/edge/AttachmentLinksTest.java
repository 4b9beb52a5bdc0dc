package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.testkit.http.RawSockets;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.Method;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Attachment links, {@code /attachments/:token/:fileName} (partner-api.md: not authenticated,
 * anyone holding the link downloads the file): the public surface. No credential is asked for
 * and none goes on; reads only; the file streams back as the service answered it; the access log
 * writes neither the token nor the file name. The fake service ({@link UpstreamServer}) answers
 * such paths with a 3 MB file and tells what it received.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class AttachmentLinksTest {

    /** As sent: a space and an accented letter percent-encoded. */
    private static final String FILE_NAME = "scan%20report%20%C3%A9t%C3%A9.pdf";
    private static final String METHOD_NOT_ALLOWED = "{\"error\":\"Method Not Allowed\"}";
    private static final String NOT_FOUND = "{\"error\":\"Not Found\"}";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    ServiceTrust trust;

    /** A token as messaging-service makes them (32 random bytes, 43 base64url characters), new for each test. */
    private static String token() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String link(String token) {
        return "/attachments/" + token + "/" + FILE_NAME;
    }

    /** The target is sent exactly as written: the file name is already percent-encoded. */
    private static RequestSpecification asWritten() {
        return given().urlEncodingEnabled(false);
    }

    private static JsonPath received(Response answer) {
        return JsonPath.from(answer.header(UpstreamServer.RECEIVED));
    }

    @Test
    void aGetWithoutAnyKeyDownloadsTheExactBytesWithTheirTypeAndName() {
        String link = link(token());
        Response answer = asWritten().get(link);
        answer.then().statusCode(200)
                .header("Content-Type", UpstreamServer.ATTACHMENT_TYPE)
                .header("Content-Disposition", UpstreamServer.ATTACHMENT_DISPOSITION)
                .header("Content-Length", String.valueOf(UpstreamServer.ATTACHMENT.length));
        assertArrayEquals(UpstreamServer.ATTACHMENT, answer.asByteArray());

        JsonPath received = received(answer);
        assertEquals("GET", received.getString("method"));
        assertEquals(link, received.getString("uri"));
        assertNull(received.getString("headers.x-partner-id"));
        assertEquals(List.of("opened", "body ended"), BodyLimitsAndAbortsTest.eventsOf(link));
    }

    @Test
    void noCredentialNorPartnerGoesOnWhateverTheClientSends() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String link = link(token());
        String forgedProof = "0".repeat(64);
        Response answer = asWritten()
                .header("x-api-key", partner.apiKey())
                .header("x-service-publishable-key", partner.publishableKey())
                .header("x-ops-key", GatewayEdgeTest.OPS_KEY)
                .header("X-Partner-Id", partner.partnerId())
                .header("X-Service-Timestamp", String.valueOf(Instant.now().getEpochSecond()))
                .header("X-Service-Proof", forgedProof)
                .header("X-Request-Id", "download-1")
                .get(link);
        answer.then().statusCode(200).header("X-Request-Id", "download-1");
        assertArrayEquals(UpstreamServer.ATTACHMENT, answer.asByteArray());

        JsonPath received = received(answer);
        for (String header : List.of("x-partner-id", "x-api-key", "x-service-publishable-key", "x-ops-key")) {
            assertNull(received.getString("headers." + header), header);
        }
        assertEquals("download-1", received.getString("headers.x-request-id"));
        String proof = received.getString("headers.x-service-proof");
        assertNotEquals(forgedProof, proof);
        // The proof covers the call as forwarded: no partner.
        assertEquals(ServiceProof.Verdict.PROVEN,
                trust.verify("GET", link, null, received.getString("headers.x-principal"),
                        received.getString("headers.x-service-timestamp"), proof));
    }

    @Test
    void headAnswersTheHeadersOfTheDownloadWithoutItsBytes() {
        String link = link(token());
        Response answer = asWritten().head(link);
        answer.then().statusCode(200)
                .header("Content-Type", UpstreamServer.ATTACHMENT_TYPE)
                .header("Content-Disposition", UpstreamServer.ATTACHMENT_DISPOSITION)
                .header("Content-Length", String.valueOf(UpstreamServer.ATTACHMENT.length));
        assertEquals(0, answer.asByteArray().length);
        assertEquals("HEAD", received(answer).getString("method"));
        assertEquals(link, received(answer).getString("uri"));
    }

    @Test
    void anyOtherMethodIs405AndReachesNoService() {
        String link = link(token());
        for (Method method : List.of(Method.POST, Method.PUT, Method.PATCH)) {
            asWritten().contentType("application/json").body("{}").request(method, link)
                    .then().statusCode(405).contentType("application/json").header("Allow", "GET, HEAD")
                    .body(equalTo(METHOD_NOT_ALLOWED));
        }
        for (Method method : List.of(Method.DELETE, Method.OPTIONS)) {
            asWritten().request(method, link)
                    .then().statusCode(405).contentType("application/json").header("Allow", "GET, HEAD")
                    .body(equalTo(METHOD_NOT_ALLOWED));
        }
        // A browser's preflight too: the link is for downloading, not for scripts of other origins.
        asWritten().header("Origin", "https://anywhere.example").header("Access-Control-Request-Method", "GET")
                .options(link).then().statusCode(405).body(equalTo(METHOD_NOT_ALLOWED));
        assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(link));
    }

    /** A GET carries no body worth reading: the JSON limit holds, as on every other route, before any service is called. */
    @Test
    void aGetWithABodyOverTheJsonLimitIs413AndReachesNoService() {
        String link = link(token());
        asWritten().contentType("application/json").body(new byte[102_401]).get(link)
                .then().statusCode(413).body(equalTo("{\"error\":\"Payload Too Large\"}"));
        assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(link));
    }

    @Test
    void onlyATokenAndAFileNameAreRouted() {
        String token = token();
        for (String path : List.of("/attachments", "/attachments/", "/attachments/" + token, "/attachments/" + token + "/",
                "/attachments//" + FILE_NAME, "/attachments/" + token + "/" + FILE_NAME + "/more",
                "/attachments/" + token + "/" + FILE_NAME + "/", "/ATTACHMENTS/" + token + "/" + FILE_NAME,
                "/v1/attachments/" + token + "/" + FILE_NAME)) {
            asWritten().get(path).then().statusCode(404).contentType("application/json").body(equalTo(NOT_FOUND));
            assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(path), path);
        }
        // Not routed, so not a method question either.
        asWritten().post("/attachments/" + token).then().statusCode(404).body(equalTo(NOT_FOUND));
        // The upload routes stay the partner's and the operator's.
        given().get("/v1/messages/conversations/c1/attachments")
                .then().statusCode(401).body(equalTo("{\"error\":\"API Key missing\"}"));
        given().get("/ops/v1/conversations/c1/prescriber-attachments")
                .then().statusCode(401).body(equalTo("{\"error\":\"Ops Key missing\"}"));
    }

    /** The token is a bearer secret and the file name patient data: the access log writes neither. */
    @Test
    void theAccessLogWritesNeitherTheTokenNorTheFileName() {
        String token = token();
        String link = link(token);
        List<String> lines = AccessLogLines.during(5, () -> {
            asWritten().header("X-Request-Id", "download-2").get(link).then().statusCode(200);
            asWritten().head(link).then().statusCode(200);
            asWritten().post(link).then().statusCode(405);
            asWritten().get("/attachments/" + token).then().statusCode(404);
            given().get("/v1/messages/conversations/c1/attachments").then().statusCode(401);
        });
        assertEquals(List.of("GET /attachments/[redacted]/[redacted] 200", "HEAD /attachments/[redacted]/[redacted] 200",
                "POST /attachments/[redacted]/[redacted] 405", "GET /attachments/[redacted] 404",
                "GET /v1/messages/conversations/c1/attachments 401"), lines.stream().map(AccessLogLines::head).toList());
        assertTrue(lines.get(0).endsWith(" partner=- req=download-2"), lines.get(0));
        assertTrue(lines.stream().noneMatch(line -> line.contains(token) || line.contains("scan")), lines.toString());
    }
    /**
     * Issue #38: a client that takes the first byte of a download and then reads nothing held the
     * gateway's and the service's side of it for as long as it liked. Below the pace (1 KiB/s over
     * 2 s here) the download is cut: the service's call ends before its last byte, and so does the
     * client's connection.
     */
    @Test
    void aClientThatStopsReadingADownloadIsCutAndTheServicesCallWithIt() throws Exception {
        // Larger than every buffer on the way (the kernel's alone can hold several megabytes).
        String link = "/attachments/" + token() + UpstreamServer.ENDLESS;
        try (Socket socket = RawSockets.connect(RestAssured.port, 4096)) {
            socket.getOutputStream().write(("GET " + link + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String head = RawSockets.head(in);
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertTrue(head.contains("\r\nContent-Length: " + UpstreamServer.ENDLESS_LENGTH + "\r\n")
                    || head.contains("\r\ncontent-length: " + UpstreamServer.ENDLESS_LENGTH + "\r\n"), head);
            assertEquals(UpstreamServer.ATTACHMENT[0] & 0xff, in.read());
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertEquals(List.of("opened", "body ended", "aborted"), BodyLimitsAndAbortsTest.eventsOf(link)));
            long rest = 0;
            try {
                for (int n; (n = in.read(new byte[8192])) > 0; ) {
                    rest += n;
                }
            } catch (IOException reset) {
                // the connection was reset: what it still held is all there was
            }
            assertTrue(1 + rest < UpstreamServer.ENDLESS_LENGTH, "the client got " + (1 + rest) + " bytes of "
                    + UpstreamServer.ENDLESS_LENGTH + " after the cut");
        }
        // A client that reads takes the whole file, as before.
        assertArrayEquals(UpstreamServer.ATTACHMENT, asWritten().get(link(token())).then().statusCode(200).extract().asByteArray());
    }

    /**
     * Issue #38: a link whose file name a client sent as raw UTF-8 bytes (not percent-encoded) was
     * re-encoded after the gateway signed it, and the service refused the forward 401. A request
     * target is ASCII: the gateway answers 400 itself, and nothing reaches the service.
     */
    @Test
    void aTargetWithRawNonAsciiBytesIsABadRequestAtTheGateway() throws Exception {
        String token = token();
        try (Socket socket = RawSockets.connect(RestAssured.port, 0)) {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("GET /attachments/" + token + "/r").getBytes(StandardCharsets.US_ASCII));
            request.writeBytes("\u00e9sum\u00e9.pdf".getBytes(StandardCharsets.UTF_8));
            request.writeBytes(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(request.toByteArray());
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
            assertTrue(answer.endsWith("\r\n\r\n{\"error\":\"Bad Request\"}"), answer);
        }
        for (String path : List.of("/attachments/" + token + "/r\u00c3\u00a9sum\u00c3\u00a9.pdf", "/attachments/" + token + "/r\u00e9sum\u00e9.pdf",
                "/attachments/" + token + "/r%C3%A9sum%C3%A9.pdf")) {
            assertEquals(List.of(), BodyLimitsAndAbortsTest.eventsOf(path), path);
        }
    }
}

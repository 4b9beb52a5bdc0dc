package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Issue #14, edge limits: the body limit is the route's (only upload routes take multipart and
 * 11 MB), a JSON body is read whole before any service is called, a client that goes away mid-body
 * ends the forward, and a body that stalls is answered 408 (1 s here, 10 s by default) with the
 * forward dropped; a read whose kept-alive connection the service closed is sent once more. The fake service ({@link UpstreamServer}) tells what became of each call.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class BodyLimitsAndAbortsTest {

    private static final Duration SOON = Duration.ofSeconds(5);

    @Test
    void aMultipartContentTypeDoesNotRaiseTheLimitOfAJsonRoute() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        byte[] file = new byte[200_000];
        String path = "/v1/requests/" + UUID.randomUUID();
        given().header("x-api-key", partner.apiKey()).multiPart("file", "scan.pdf", file, "application/pdf").post(path)
                .then().statusCode(413).body("error", equalTo("Payload Too Large"));
        assertEquals(List.of(), eventsOf(path));
    }

    @Test
    void anUploadRouteTakesMoreThanTheJsonLimitAndRefusesPastItsOwn() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        given().header("x-api-key", partner.apiKey()).multiPart("file", "scan.pdf", new byte[200_000], "application/pdf")
                .post("/v1/messages/conversations/c1/attachments").then().statusCode(200);
        byte[] over = new byte[11_600_000];
        Arrays.fill(over, (byte) 1);
        given().header("x-api-key", partner.apiKey()).multiPart("file", "big.pdf", over, "application/pdf")
                .post("/v1/messages/conversations/c2/attachments")
                .then().statusCode(413).body("error", equalTo("File too large"));
        // A non-multipart body on the upload route is the service's to refuse; it is only bounded by the upload limit.
        given().header("x-api-key", partner.apiKey()).contentType("application/json").body(new byte[200_000])
                .post("/v1/messages/conversations/c3/attachments").then().statusCode(200).body("bodyLength", equalTo(200_000));
    }

    @Test
    void theConsolesAttachmentFormTakesTheUploadLimit() {
        given().noFilters().multiPart("csrf", "c").multiPart("file", "scan.pdf", new byte[200_000], "application/pdf")
                .post("/console/conversations/c1/attach").then().statusCode(200).body("uri", equalTo("/console/conversations/c1/attach"));
        byte[] over = new byte[11_600_000];
        Arrays.fill(over, (byte) 1);
        given().noFilters().multiPart("file", "big.pdf", over, "application/pdf").post("/console/conversations/c2/attach")
                .then().statusCode(413).body("error", equalTo("File too large"));
        // Its other forms keep the JSON limit.
        given().noFilters().contentType("application/x-www-form-urlencoded").body("text=" + "a".repeat(200_000))
                .post("/console/conversations/c3/reply").then().statusCode(413).body("error", equalTo("Payload Too Large"));
    }

    @Test
    void aJsonBodyThatStallsIsAnswered408AndNoServiceIsCalled() throws IOException {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String path = "/v1/members/" + UUID.randomUUID();
        try (Socket socket = halfABody("PUT", path, partner.apiKey(), 1_000, 500)) {
            long began = System.nanoTime();
            String answer = readAnswer(socket);
            long waitedMs = (System.nanoTime() - began) / 1_000_000;
            assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout"), answer);
            assertTrue(answer.endsWith("{\"error\":\"Request Timeout\"}"), answer);
            assertTrue(waitedMs < 4_000, "answered after " + waitedMs + " ms");
        }
        assertEquals(List.of(), eventsOf(path));
    }

    @Test
    void aJsonBodyCutOffByTheClientCallsNoService() throws IOException {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String path = "/v1/members/" + UUID.randomUUID();
        halfABody("PUT", path, partner.apiKey(), 1_000, 500).close();
        // Nothing to wait for on the service's side: prove the gateway moved on, then that no call went out.
        given().header("x-api-key", partner.apiKey()).get("/v1/members").then().statusCode(200);
        assertEquals(List.of(), eventsOf(path));
    }

    @Test
    void anUploadCutOffByTheClientEndsTheForward() throws IOException {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String path = "/v1/messages/conversations/" + UUID.randomUUID() + "/attachments";
        Socket socket = halfABody("POST", path, partner.apiKey(), 5_000_000, 1_000_000);
        await().atMost(SOON).untilAsserted(() -> assertEquals(List.of("opened"), eventsOf(path)));
        socket.close();
        await().atMost(SOON).untilAsserted(() -> assertEquals(List.of("opened", "aborted"), eventsOf(path)));
    }

    @Test
    void anUploadThatStallsIsAnswered408AndTheForwardIsDropped() throws IOException {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String path = "/v1/messages/conversations/" + UUID.randomUUID() + "/attachments";
        try (Socket socket = halfABody("POST", path, partner.apiKey(), 5_000_000, 1_000_000)) {
            String answer = readAnswer(socket);
            assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout"), answer);
            assertTrue(answer.endsWith("{\"error\":\"Request Timeout\"}"), answer);
        }
        await().atMost(SOON).untilAsserted(() -> assertEquals(List.of("opened", "aborted"), eventsOf(path)));
    }

    @Test
    void aReadWhoseConnectionTheServiceClosedIsSentOnceMoreAndNothingElseIs() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        String read = "/v1/members/" + UUID.randomUUID() + "/close-first";
        given().header("x-api-key", partner.apiKey()).get(read).then().statusCode(200).body("path", equalTo(read));
        assertEquals(List.of("opened", "opened", "body ended"), eventsOf(read));

        String write = "/v1/requests/" + UUID.randomUUID() + "/close-first";
        given().header("x-api-key", partner.apiKey()).contentType("application/json").body("{}").post(write)
                .then().statusCode(503).body("error", equalTo("Service Unavailable"));
        assertEquals(List.of("opened"), eventsOf(write));
    }

    /** Sends the head of a call declaring {@code declared} bytes and the first {@code sent} of them, then nothing. */
    private static Socket halfABody(String method, String path, String apiKey, int declared, int sent) throws IOException {
        Socket socket = new Socket("127.0.0.1", RestAssured.port);
        socket.setSoTimeout(15_000);
        OutputStream out = socket.getOutputStream();
        out.write((method + " " + path + " HTTP/1.1\r\nHost: gateway\r\nx-api-key: " + apiKey
                + "\r\nContent-Type: application/json\r\nContent-Length: " + declared + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        byte[] part = new byte[sent];
        Arrays.fill(part, (byte) ' ');
        out.write(part);
        out.flush();
        return socket;
    }

    /** Everything the gateway writes until it closes the connection. */
    private static String readAnswer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        in.transferTo(answer);
        return answer.toString(StandardCharsets.ISO_8859_1);
    }

    /** What became of the calls on {@code path} at the fake service ({@link UpstreamServer#EVENTS}). */
    static List<String> eventsOf(String path) {
        String upstream = ConfigProvider.getConfig().getValue("test.upstream-url", String.class);
        return given().baseUri(upstream).queryParam("path", path).get(UpstreamServer.EVENTS)
                .then().statusCode(200).extract().jsonPath().getList("", String.class);
    }
}

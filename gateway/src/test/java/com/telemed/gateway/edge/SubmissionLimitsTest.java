package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.http.RawSockets;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The limits on anonymous embed submissions (issue 20): per client address within a partner and
 * per partner, {@code 429 {"error":"Too Many Requests"}} with the IETF RateLimit header fields and
 * {@code Retry-After} past either, definitions (GET) never limited, and one partner's traffic never
 * spending another's. Small limits here (3 per address, 5 per partner, a minute); client addresses
 * come from {@code X-Forwarded-For} when the peer is a trusted proxy (the tests' client, as a
 * deployment's Ingress controller), and are the peer itself otherwise.
 */
@QuarkusTest
@TestProfile(SubmissionLimitsTest.SmallLimits.class)
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class SubmissionLimitsTest {

    private static final String ORIGIN = "https://shop.acme.example";
    private static final String POLICY = "\"address\";q=3;w=60, \"partner\";q=5;w=60";
    /** The tests' own client (REST Assured) stands for the Ingress controller: its X-Forwarded-For is believed. */
    private static final String TRUSTED_PROXY = "127.0.0.1";
    /** A peer that is no trusted proxy: another loopback address, bound as the connection's source. */
    private static final String UNTRUSTED_PEER = "127.0.0.2";

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gateway.embed-limits.per-address", "3", "gateway.embed-limits.per-partner", "5",
                    "gateway.embed-limits.window", "60s",
                    "quarkus.http.proxy.proxy-address-forwarding", "true", "quarkus.http.proxy.trusted-proxies", TRUSTED_PROXY);
        }
    }

    private static GatewayEdgeTest.Credentials partnerWithOrigin() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json").body(Map.of("origins", List.of(ORIGIN)))
                .put("/ops/v1/partners/" + partner.partnerId() + "/embed-origins").then().statusCode(200);
        return partner;
    }

    private static Response submit(GatewayEdgeTest.Credentials partner, String address) {
        return given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", ORIGIN)
                .header("X-Forwarded-For", address).contentType("application/json").body("{\"answers\": {}}")
                .post("/v2/embed/surveys/s1/responses");
    }

    private static void assertRefused(Response refused, String policy, int refillSeconds) {
        refused.then().statusCode(429).body(equalTo("{\"error\":\"Too Many Requests\"}"))
                .header("RateLimit-Policy", POLICY)
                .header("Access-Control-Allow-Origin", ORIGIN);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter >= refillSeconds - 5 && retryAfter <= refillSeconds, "Retry-After " + retryAfter);
        assertEquals("\"" + policy + "\";r=0;t=" + retryAfter, refused.header("RateLimit"));
    }

    @Test
    void aVisitorIsStoppedAtTheirAddressQuotaAndDefinitionsStayReadable() {
        GatewayEdgeTest.Credentials partner = partnerWithOrigin();
        String address = "10.1.0.1";
        // Reaches the service (the upstream echoes), with the limits described.
        submit(partner, address).then().statusCode(200).body("method", equalTo("POST"))
                .header("RateLimit-Policy", POLICY).header("RateLimit", "\"address\";r=2;t=20")
                .header("Access-Control-Expose-Headers", "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After");
        submit(partner, address).then().statusCode(200).header("RateLimit", "\"address\";r=1;t=40");
        submit(partner, address).then().statusCode(200).header("RateLimit", "\"address\";r=0;t=60");
        assertRefused(submit(partner, address), "address", 20);
        // Reading a definition is not a submission.
        given().header("x-service-publishable-key", partner.publishableKey()).header("Origin", ORIGIN).header("X-Forwarded-For", address)
                .get("/v2/embed/surveys/s1").then().statusCode(200).header("RateLimit", nullValue());
        // Another address of the same partner still submits: 4th and 5th of the partner's 5.
        submit(partner, "10.1.0.2").then().statusCode(200).header("RateLimit", "\"partner\";r=1;t=48");
        submit(partner, "10.1.0.2").then().statusCode(200).header("RateLimit", "\"partner\";r=0;t=60");
    }

    @Test
    void aPartnersWholeTrafficStopsAtItsQuotaAndNeverSpendsAnothers() {
        GatewayEdgeTest.Credentials busy = partnerWithOrigin();
        GatewayEdgeTest.Credentials other = partnerWithOrigin();
        for (int visitor = 1; visitor <= 5; visitor++) {
            submit(busy, "10.2.0." + visitor).then().statusCode(200);
        }
        assertRefused(submit(busy, "10.2.0.6"), "partner", 12);
        // The other partner's form, from the same addresses, is not limited at all: buckets are the partner's own.
        submit(other, "10.2.0.6").then().statusCode(200).header("RateLimit", "\"address\";r=2;t=20");
        // Its second submission: 2 of 3 left at the address, 3 of 5 for the partner, which is the nearer its end.
        submit(other, "10.2.0.1").then().statusCode(200).header("RateLimit", "\"partner\";r=3;t=24");
    }
    /**
     * Issue #39: the hosted survey page's form is the embed's submission by another way, so with a
     * valid key it spends the same partner's buckets (the 429 then the gateway's, JSON, as on the
     * embed); showing the page is not a submission, and a page without a partner has no quota.
     */
    @Test
    void theHostedSurveyPagesFormSpendsTheEmbedsQuota() {
        GatewayEdgeTest.Credentials partner = partnerWithOrigin();
        String address = "10.3.0.1";
        submit(partner, address).then().statusCode(200);
        submitPage("/surveys/s1?key=" + partner.publishableKey(), address).then().statusCode(200)
                .body("headers.x-partner-id", equalTo(partner.partnerId()))
                .header("RateLimit-Policy", POLICY).header("RateLimit", "\"address\";r=1;t=40");
        given().header("X-Forwarded-For", address).get("/surveys/s1?key=" + partner.publishableKey())
                .then().statusCode(200).header("RateLimit", nullValue());
        submitPage("/surveys/s1?key=" + partner.publishableKey(), address).then().statusCode(200);
        Response refused = submitPage("/surveys/s1?key=" + partner.publishableKey(), address);
        refused.then().statusCode(429).body(equalTo("{\"error\":\"Too Many Requests\"}")).header("RateLimit-Policy", POLICY);
        assertEquals("\"address\";r=0;t=" + refused.header("Retry-After"), refused.header("RateLimit"));
        assertRefused(submit(partner, address), "address", 20);
        // Without a partner (no key, or a returning member's token page) nothing is counted.
        submitPage("/surveys/s1", address).then().statusCode(200).header("RateLimit", nullValue());
        submitPage("/surveys/t/abc", address).then().statusCode(200).header("RateLimit", nullValue());
    }

    private static Response submitPage(String target, String address) {
        return given().urlEncodingEnabled(false).header("X-Forwarded-For", address).contentType("application/x-www-form-urlencoded")
                .body("q1=yes").post(target);
    }

    /**
     * Issue #38: behind an Ingress the peer is one of a few controller pods, so the client comes from
     * X-Forwarded-For, but only a trusted proxy's: from any other peer the header changes nothing, and
     * a script that sends a new address each time still spends its own peer's quota.
     */
    @Test
    void aSpoofedForwardedForFromAPeerThatIsNoTrustedProxyChangesNothing() throws Exception {
        GatewayEdgeTest.Credentials partner = partnerWithOrigin();
        for (int attempt = 1; attempt <= 3; attempt++) {
            assertEquals(200, submitFromUntrustedPeer(partner, "10.9.0." + attempt), "attempt " + attempt);
        }
        assertEquals(429, submitFromUntrustedPeer(partner, "10.9.0.4"));
        // Through the trusted proxy the forwarded client has a bucket of its own (the untrusted peer's is
        // spent); the partner's, 4 of 5 used, is now the nearer its end.
        submit(partner, "10.9.0.4").then().statusCode(200).header("RateLimit", "\"partner\";r=1;t=48");
    }

    /** An embed submission sent from {@link #UNTRUSTED_PEER} with a forwarded address of its choosing; its status. */
    private static int submitFromUntrustedPeer(GatewayEdgeTest.Credentials partner, String forwardedFor) throws IOException {
        byte[] body = "{\"answers\": {}}".getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(30_000);
            socket.bind(new InetSocketAddress(InetAddress.getByName(UNTRUSTED_PEER), 0));
            socket.connect(new InetSocketAddress(InetAddress.getByName(TRUSTED_PROXY), RestAssured.port), 5_000);
            String head = "POST /v2/embed/surveys/s1/responses HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "x-service-publishable-key: " + partner.publishableKey() + "\r\nOrigin: " + ORIGIN + "\r\n"
                    + "X-Forwarded-For: " + forwardedFor + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            String status = RawSockets.head(socket.getInputStream()).lines().findFirst().orElseThrow();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }
}

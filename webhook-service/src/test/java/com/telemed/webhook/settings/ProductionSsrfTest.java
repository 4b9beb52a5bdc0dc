package com.telemed.webhook.settings;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.json.Timestamps;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(ProductionProfile.class)
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class ProductionSsrfTest {

    @Inject
    SecretCipher cipher;

    private static io.restassured.response.ValidatableResponse put(String partnerId, String url) {
        return given().contentType("application/json").body("{\"url\":\"" + url + "\"}")
                .when().put("/ops/v1/partners/" + partnerId + "/webhook").then();
    }

    @Test
    void savingRefusesHttp() {
        put(Partners.newPartner(), "http://hooks.partner.example/x")
                .statusCode(400).body(equalTo("{\"error\":\"Webhook URL must use https\"}"));
    }

    /** The partner's own PUT /v1/webhook applies the same rules (partner-extensions.md: as the operator call). */
    @Test
    void thePartnersOwnSaveRefusesHttpAndInternalAddresses() {
        String partner = Partners.newPartner();
        for (String[] refused : new String[][] {{"http://hooks.partner.example/x", "Webhook URL must use https"},
                {"https://127.0.0.1/x", "Webhook URL resolves to an address that is not allowed"},
                {"https://169.254.169.254/latest/meta-data", "Webhook URL resolves to an address that is not allowed"}}) {
            given().header("X-Partner-Id", partner).contentType("application/json").body("{\"url\":\"" + refused[0] + "\"}")
                    .when().put("/v1/webhook").then()
                    .statusCode(400).body(equalTo("{\"error\":\"" + refused[1] + "\"}"));
        }
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partner));
    }

    @Test
    void savingRefusesInternalAddresses() {
        for (String url : new String[] {"https://127.0.0.1/x", "https://localhost/x", "https://[::1]/x",
                "https://[::ffff:127.0.0.1]/x", "https://[::ffff:7f00:1]/x", "https://10.0.0.8/x", "https://172.16.5.4/x",
                "https://192.168.1.1/x", "https://100.64.0.1/x", "https://169.254.169.254/latest/meta-data",
                "https://0.0.0.0/x", "https://[fe80::1]/x", "https://[fd00::1]/x", "https://224.0.0.1/x"}) {
            String partner = Partners.newPartner();
            put(partner, url).statusCode(400)
                    .body(equalTo("{\"error\":\"Webhook URL resolves to an address that is not allowed\"}"));
            assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM webhook_settings WHERE partner_id = ?", partner), url);
        }
    }

    @Test
    void shapeIsStillValidatedFirst() {
        put(Partners.newPartner(), "ftp://x").statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_string\",\"validation\":\"url\",\"path\":[\"url\"],\"message\":\"Invalid url\"}]}"));
    }

    /**
     * DNS can change after the URL was saved: the address is checked again at every attempt. The
     * row is staged directly (the API would refuse it), pointing at a real receiver on loopback.
     */
    @Test
    void deliveryTimeCheckRefusesWithoutConnecting() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger connections = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept()) {
                        connections.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String partner = Partners.newPartner();
            Timestamp now = Timestamp.from(Timestamps.now());
            SecretCipher.Sealed sealed = cipher.encrypt(partner, cipher.newSecret());
            ServiceDatabase.update("INSERT INTO webhook_settings (partner_id, url, secret_encrypted, secret_key_id, created_at, updated_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?)",
                    partner, "https://127.0.0.1:" + listener.getLocalPort() + "/hooks", sealed.bytes(), sealed.keyId(),
                    now, now);
            String eventId = Events.newId();
            Events.publish("care.events", "r-1", Events.envelope(eventId, partner, "item.approved", Events.itemApproved("r-1")));

            await("failed").atMost(Duration.ofSeconds(20)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ? AND status = 'failed'", partner) == 1);
            List<Map<String, Object>> attempts = ServiceDatabase.rows("SELECT a.http_status, a.error FROM delivery_attempts a"
                    + " JOIN deliveries d ON d.id = a.delivery_id WHERE d.partner_id = ? ORDER BY a.id", partner);
            assertEquals(3, attempts.size());
            for (Map<String, Object> attempt : attempts) {
                assertEquals(null, attempt.get("http_status"));
                assertEquals("address not allowed", attempt.get("error"));
            }
            assertEquals(0, connections.get(), "no connection was made");
        }
    }
}

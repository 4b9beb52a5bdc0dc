package com.telemed.webhook.settings;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Hmac;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A partner whose stored secret cannot be decrypted (its key id is not configured: a key removed
 * too early) fails alone: its deliveries' attempts are recorded as failed ({@code webhook secret
 * unreadable}, no connection) and logged with partner and key id, while every other partner's
 * deliveries go on. Before, the intake threw for the whole batch and retried it every second
 * forever (no partner got anything), and a claim holding such a row leased every other row it
 * returned for 60 s without attempting them.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class UnreadableSecretTest {

    private static final String GONE_KEY = "retired-2023";

    private final List<ExtLogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            warnings.add((ExtLogRecord) record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureTheCiphersLog() {
        java.util.logging.Logger.getLogger(SecretCipher.class.getName()).addHandler(capture);
    }

    @AfterEach
    void release() {
        java.util.logging.Logger.getLogger(SecretCipher.class.getName()).removeHandler(capture);
    }

    /** The partner's secret as if a key no longer configured had encrypted it. */
    private static void encryptedWithAKeyThatIsGone(String partnerId) {
        assertEquals(1, ServiceDatabase.update("UPDATE webhook_settings SET secret_key_id = ? WHERE partner_id = ?", GONE_KEY, partnerId));
    }

    private static List<Map<String, Object>> attempts(String partnerId) {
        return ServiceDatabase.rows("SELECT a.http_status, a.error, a.duration_ms FROM delivery_attempts a"
                + " JOIN deliveries d ON d.id = a.delivery_id WHERE d.partner_id = ? ORDER BY a.id", partnerId);
    }

    private static void assertFailedUnreadable(String partnerId, int attempts) {
        await().atMost(Duration.ofSeconds(20)).until(() -> ServiceDatabase.count(
                "SELECT count(*) FROM deliveries WHERE partner_id = ? AND status = 'failed'", partnerId) == 1);
        List<Map<String, Object>> made = attempts(partnerId);
        List<Map<String, Object>> expected = new ArrayList<>();
        for (int i = 0; i < attempts; i++) {
            expected.add(Map.of("error", "webhook secret unreadable", "duration_ms", 0));
        }
        assertEquals(expected, made.stream().map(row -> Map.of("error", row.get("error"), "duration_ms", row.get("duration_ms")))
                .toList());
        made.forEach(row -> assertEquals(null, row.get("http_status")));
        assertEquals(List.of(Map.of("status", "failed", "attempt_count", attempts, "signature_is_null", true)),
                ServiceDatabase.rows("SELECT status, attempt_count, signature IS NULL AS signature_is_null FROM deliveries WHERE partner_id = ?",
                        partnerId));
    }

    private void assertLoggedOnce(String partnerId) {
        List<String> lines = warnings.stream().map(ExtLogRecord::getFormattedMessage)
                .filter(line -> line.contains(partnerId)).toList();
        assertEquals(List.of("The webhook secret of partner " + partnerId + " (key id " + GONE_KEY + ") cannot be read:"
                + " no such key configured; its deliveries fail (other partners' go on) until that key is configured"
                + " again or the partner's secret is rotated"), lines);
    }

    @Test
    void aBatchWithAnUnreadableSecretIsStoredAndOnlyThatPartnersDeliveriesFail() throws Exception {
        try (Receiver healthy = Receiver.answering(200); Receiver broken = Receiver.answering(200)) {
            String good = Partners.newPartner();
            String goodSecret = Partners.setUrl(good, healthy.url());
            String bad = Partners.newPartner();
            Partners.setUrl(bad, broken.url());
            encryptedWithAKeyThatIsGone(bad);

            // One key, so one partition: both events in order, most likely in one batch.
            String badEvent = Events.newId();
            Events.publish("care.events", "r-isolation",
                    Events.envelope(badEvent, bad, "item.approved", Events.itemApproved("r-bad")),
                    Events.envelope(Events.newId(), good, "item.approved", Events.itemApproved("r-good")));

            await().atMost(Duration.ofSeconds(15)).until(() -> healthy.received().size() == 1);
            Receiver.Received post = healthy.received().get(0);
            assertEquals(Hmac.expectedSignature(goodSecret, post.header("X-Webhook-Timestamp"), post.body()),
                    post.header("X-Webhook-Signature"));

            // The broken partner's delivery was stored once and failed its 3 attempts without a connection.
            assertFailedUnreadable(bad, 3);
            assertEquals(1, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE event_id = ?", badEvent));
            assertEquals(0, broken.received().size());
            assertLoggedOnce(bad);

            // The batch was acknowledged: the partition moved on, a later event is delivered.
            Events.publish("care.events", "r-isolation", Events.envelope(Events.newId(), good, "item.approved",
                    Events.itemApproved("r-good-2")));
            await().atMost(Duration.ofSeconds(15)).until(() -> healthy.received().size() == 2);

            // A rotation gives the partner a readable secret again: its next event is delivered, signed with it.
            String rotated = given().when().post("/ops/v1/partners/" + bad + "/webhook/secret/rotate")
                    .then().statusCode(200).extract().path("secret");
            assertEquals("local", ServiceDatabase.rows("SELECT secret_key_id FROM webhook_settings WHERE partner_id = ?", bad)
                    .get(0).get("secret_key_id"));
            Events.publish("care.events", "r-isolation", Events.envelope(Events.newId(), bad, "item.approved",
                    Events.itemApproved("r-bad-2")));
            await().atMost(Duration.ofSeconds(15)).until(() -> broken.received().size() == 1);
            Receiver.Received recovered = broken.received().get(0);
            assertEquals(Hmac.expectedSignature(rotated, recovered.header("X-Webhook-Timestamp"), recovered.body()),
                    recovered.header("X-Webhook-Signature"));
        }
    }

    /**
     * Due deliveries of both partners claimed together, the unreadable one first: the other is
     * attempted at once; a redelivery of the broken partner's delivery fails the same way.
     */
    @Test
    void aClaimWithAnUnreadableSecretAttemptsTheOtherPartnersDeliveries() throws Exception {
        try (Receiver healthy = Receiver.answering(200); Receiver broken = Receiver.answering(200)) {
            String good = Partners.newPartner();
            Partners.setUrl(good, healthy.url());
            String bad = Partners.newPartner();
            Partners.setUrl(bad, broken.url());
            encryptedWithAKeyThatIsGone(bad);

            UUID badDelivery = UUID.randomUUID();
            UUID goodDelivery = UUID.randomUUID();
            // One statement, so one claim finds both (the unreadable one first: it is due earlier).
            ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                            + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at) VALUES"
                            + " (?, ?, ?, 'item.approved', ?, NULL, NULL, 'retrying', 0, 0, now() - interval '2 seconds', NULL, now(), now()),"
                            + " (?, ?, ?, 'item.approved', ?, NULL, NULL, 'retrying', 0, 0, now() - interval '1 second', NULL, now(), now())",
                    badDelivery, bad, Events.newId(), Events.itemApproved("r-claim-bad"),
                    goodDelivery, good, Events.newId(), Events.itemApproved("r-claim-good"));

            await().atMost(Duration.ofSeconds(5)).until(() -> healthy.received().size() == 1);
            assertEquals(goodDelivery.toString(), healthy.received().get(0).header("X-Webhook-Id"));
            assertFailedUnreadable(bad, 3);
            assertEquals(0, broken.received().size());
            assertLoggedOnce(bad);

            given().when().post("/ops/v1/partners/" + bad + "/webhook/deliveries/" + badDelivery + "/redeliver")
                    .then().statusCode(202);
            await().atMost(Duration.ofSeconds(20)).until(() -> attempts(bad).size() == 6
                    && ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE id = ? AND status = 'failed'", badDelivery) == 1);
            assertEquals(Arrays.asList("webhook secret unreadable", "webhook secret unreadable", "webhook secret unreadable",
                            "webhook secret unreadable", "webhook secret unreadable", "webhook secret unreadable"),
                    attempts(bad).stream().map(row -> row.get("error")).toList());
            assertEquals(0, broken.received().size());

            // Left readable for the other tests (re-encryption counts every unreadable secret).
            given().when().post("/ops/v1/partners/" + bad + "/webhook/secret/rotate").then().statusCode(200);
        }
    }
}

package com.telemed.webhook.delivery;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.json.Timestamps;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Hmac;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A delivery is signed when its first attempt starts, not when it is stored: a delivery that waits
 * for one of its partner's 8 attempt slots behind a burst must not carry a timestamp from the time
 * it arrived (receivers following the contract refuse timestamps over five minutes old). Retries,
 * which are claimed from the row (as after a restart), reuse that timestamp and signature exactly.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class SigningTest {

    private static final Logger LOG = Logger.getLogger(SigningTest.class);

    private static final int BURST = 48;
    private static final Duration RECEIVER_DELAY = Duration.ofSeconds(2);
    /** Attempt start to receipt on loopback, plus the second the timestamp is truncated to, plus slack for a busy machine. */
    private static final long MAX_AGE_AT_RECEIPT_MS = 3_000;

    /**
     * 48 events at once for one partner whose receiver takes 2 s to answer: 8 go out at once, the
     * others wait in memory for a slot, the last ones about 10 s. The 41st POST is answered 500 and
     * retried 2 s later. Every first POST carries the second its attempt started (recorded in the
     * attempt row), seconds after the event was stored; the retry repeats timestamp, signature and
     * body byte for byte, and the row holds what was sent.
     */
    @Test
    void aDeliveryThatWaitedBehindABurstIsSignedWhenItsFirstAttemptStarts() throws Exception {
        Integer[] script = new Integer[41];
        Arrays.fill(script, 200);
        script[40] = 500;
        try (Receiver receiver = Receiver.slow(RECEIVER_DELAY, 200, script)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            String[] burst = new String[BURST];
            for (int i = 0; i < BURST; i++) {
                burst[i] = Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-sign-" + i));
            }
            Events.publish("care.events", "r-sign", burst);

            await().atMost(Duration.ofSeconds(60)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ? AND status = 'delivered'", partner) == BURST);
            List<Receiver.Received> posts = receiver.received();
            assertEquals(BURST + 1, posts.size(), "one POST per event, one retry");

            Map<String, List<Receiver.Received>> byId = posts.stream().collect(Collectors.groupingBy(
                    post -> post.header("X-Webhook-Id"), LinkedHashMap::new, Collectors.toList()));
            assertEquals(BURST, byId.size());
            Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
            for (Map<String, Object> row : ServiceDatabase.rows("SELECT d.id, d.signed_at, d.signature, d.created_at,"
                    + " (SELECT min(a.at) FROM delivery_attempts a WHERE a.delivery_id = d.id) AS first_attempt_at"
                    + " FROM deliveries d WHERE d.partner_id = ?", partner)) {
                rows.put(row.get("id").toString(), row);
            }

            for (Map.Entry<String, List<Receiver.Received>> delivery : byId.entrySet()) {
                Receiver.Received first = delivery.getValue().get(0);
                String timestamp = first.header("X-Webhook-Timestamp");
                long signedAt = Long.parseLong(timestamp);
                Map<String, Object> row = rows.get(delivery.getKey());
                Instant firstAttemptAt = ((Timestamp) row.get("first_attempt_at")).toInstant();
                assertEquals(firstAttemptAt.getEpochSecond(), signedAt, "the first attempt's second");
                long ageAtReceiptMs = first.epochMillis() - signedAt * 1000;
                assertTrue(ageAtReceiptMs >= 0 && ageAtReceiptMs < MAX_AGE_AT_RECEIPT_MS,
                        "timestamp " + ageAtReceiptMs + " ms old at receipt");
                assertEquals(Hmac.expectedSignature(secret, timestamp, first.body()), first.header("X-Webhook-Signature"));
                assertEquals(timestamp, row.get("signed_at"), "stored with the first attempt");
                assertEquals(first.header("X-Webhook-Signature"), row.get("signature"));
            }

            // The last event to go out waited for a slot: signed when it went, not when it was stored.
            Receiver.Received last = byId.values().stream().map(list -> list.get(0))
                    .max(Comparator.comparingLong(Receiver.Received::nanos)).orElseThrow();
            Instant stored = ((Timestamp) rows.get(last.header("X-Webhook-Id")).get("created_at")).toInstant();
            long waitedMs = last.epochMillis() - stored.toEpochMilli();
            long signedAfterStoredS = Long.parseLong(last.header("X-Webhook-Timestamp")) - stored.getEpochSecond();
            LOG.infof("MEASURED last of the burst: stored %d ms before its POST, signed %d s after it was stored",
                    waitedMs, signedAfterStoredS);
            assertTrue(waitedMs >= 8_000, "the last delivery waited behind the burst (" + waitedMs + " ms)");
            assertTrue(signedAfterStoredS >= 7, "signed " + signedAfterStoredS + " s after it was stored");

            // The retried delivery: its second attempt (claimed from the row) repeats the first exactly.
            List<List<Receiver.Received>> retried = byId.values().stream().filter(list -> list.size() > 1).toList();
            assertEquals(1, retried.size());
            Receiver.Received failed = retried.get(0).get(0);
            Receiver.Received retry = retried.get(0).get(1);
            assertTrue(retry.nanos() - failed.nanos() >= RECEIVER_DELAY.toNanos() + Duration.ofMillis(1800).toNanos(),
                    "retried after the answer and the 2 s wait");
            assertArrayEquals(failed.body(), retry.body());
            for (String header : List.of("X-Webhook-Timestamp", "X-Webhook-Signature", "X-Webhook-Id")) {
                assertEquals(failed.header(header), retry.header(header), header);
            }
            assertTrue(Long.parseLong(failed.header("X-Webhook-Timestamp")) >= stored.getEpochSecond() + 7,
                    "the retried delivery waited in the burst too");
            assertEquals(List.of(500, 200), ServiceDatabase.rows("SELECT a.http_status FROM delivery_attempts a"
                    + " WHERE a.delivery_id = ?::uuid ORDER BY a.id", failed.header("X-Webhook-Id"))
                    .stream().map(row -> row.get("http_status")).toList());
        }
    }

    /**
     * A delivery stored unsigned ten minutes ago (it waited in the database, as a burst's overflow
     * or a crashed replica's deliveries do) is signed by the claim's first attempt with the secret
     * the partner has then (rotated after the event arrived). The signature is stored with that
     * attempt, before the retry, which is claimed from the row and sends it again unchanged.
     */
    @Test
    void aDeliveryStoredUnsignedIsSignedByItsFirstAttemptAndTheRetryReusesTheStoredSignature() throws Exception {
        try (Receiver receiver = new Receiver(200, 500)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            String rotated = given().when().post("/ops/v1/partners/" + partner + "/webhook/secret/rotate")
                    .then().statusCode(200).extract().path("secret");
            String body = Events.itemApproved("r-unsigned");
            UUID id = UUID.randomUUID();
            Timestamp created = Timestamp.from(Timestamps.now().minus(Duration.ofMinutes(10)));
            long staged = System.currentTimeMillis() / 1000;
            ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                            + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                            + " VALUES (?, ?, ?, 'item.approved', ?, NULL, NULL, 'retrying', 0, 0, ?, NULL, ?, ?)",
                    id, partner, Events.newId(), body, created, created, created);

            await().atMost(Duration.ofSeconds(10)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE id = ? AND attempt_count = 1", id) == 1);
            Receiver.Received first = receiver.received().get(0);
            String timestamp = first.header("X-Webhook-Timestamp");
            assertTrue(Long.parseLong(timestamp) >= staged, "signed at the attempt, not at " + created);
            assertEquals(Hmac.expectedSignature(rotated, timestamp, body.getBytes(StandardCharsets.UTF_8)),
                    first.header("X-Webhook-Signature"));
            Map<String, Object> row = ServiceDatabase.rows("SELECT signed_at, signature, status FROM deliveries WHERE id = ?", id).get(0);
            assertEquals(timestamp, row.get("signed_at"), "stored with the first attempt");
            assertEquals(first.header("X-Webhook-Signature"), row.get("signature"));
            assertEquals("retrying", row.get("status"));

            await().atMost(Duration.ofSeconds(10)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE id = ? AND status = 'delivered'", id) == 1);
            List<Receiver.Received> posts = receiver.received();
            assertEquals(2, posts.size());
            Receiver.Received retry = posts.get(1);
            assertArrayEquals(first.body(), retry.body());
            for (String header : List.of("X-Webhook-Timestamp", "X-Webhook-Signature", "X-Webhook-Id")) {
                assertEquals(first.header(header), retry.header(header), header);
            }
            assertEquals(List.of(timestamp, first.header("X-Webhook-Signature")), new ArrayList<>(ServiceDatabase.rows(
                    "SELECT signed_at, signature FROM deliveries WHERE id = ?", id).get(0).values()));
        }
    }

    /** The row of a delivery not attempted yet holds no signature (nothing to go stale while it waits). */
    @Test
    void aStoredDeliveryIsUnsignedUntilItsFirstAttempt() throws Exception {
        try (Receiver receiver = Receiver.answering(Receiver.HOLD)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            String[] burst = new String[12];
            for (int i = 0; i < burst.length; i++) {
                burst[i] = Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-held-" + i));
            }
            Events.publish("care.events", "r-held", burst);
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received().size() == 8
                    && ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?", partner) == 12);
            // 8 in flight (signed, not yet recorded), 4 waiting for a slot: no row is signed before its attempt is recorded.
            assertEquals(12, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?"
                    + " AND signed_at IS NULL AND signature IS NULL AND attempt_count = 0", partner));
            receiver.release();
            await().atMost(Duration.ofSeconds(15)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ? AND status = 'delivered'", partner) == 12);
            assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?"
                    + " AND (signed_at IS NULL OR signature IS NULL)", partner));
            for (Receiver.Received post : receiver.received()) {
                assertEquals(post.header("X-Webhook-Signature"), ServiceDatabase.rows(
                        "SELECT signature FROM deliveries WHERE id = ?::uuid", post.header("X-Webhook-Id")).get(0).get("signature"));
            }
        }
    }
}

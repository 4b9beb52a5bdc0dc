package com.telemed.webhook.delivery;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.json.Timestamps;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Hmac;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Consuming and delivering end to end: envelopes produced onto the real Kafka topics with a plain
 * producer, deliveries in the real PostgreSQL, a real HTTP receiver on loopback. Retry waits are
 * the contract's real 2 s and 4 s.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class DeliveryFlowTest {

    private static final Logger LOG = Logger.getLogger(DeliveryFlowTest.class);

    private static final long NANOS_PER_MS = 1_000_000L;

    /** Beyond a quiet period, for the last look: evaluating the condition takes a moment on a busy machine. */
    private static final Duration QUIET_SLACK = Duration.ofSeconds(2);

    private static JsonPath log(String partnerId) {
        return given().when().get("/ops/v1/partners/" + partnerId + "/webhook/deliveries")
                .then().statusCode(200).extract().jsonPath();
    }

    private static long gapMs(Receiver.Received earlier, Receiver.Received later) {
        return (later.nanos() - earlier.nanos()) / NANOS_PER_MS;
    }

    /** The log shows the partner's (only) delivery with this status within 5 s: its attempts are recorded. */
    private static void awaitStatus(String partnerId, String status) {
        await().atMost(Duration.ofSeconds(5)).until(() -> status.equals(log(partnerId).getString("deliveries[0].status")));
    }

    /**
     * Nothing more arrives: the receiver has exactly {@code count} requests for the whole of
     * {@code quiet} (a request more fails the test, at the latest when the quiet period cannot end).
     */
    private static void assertStaysAt(Receiver receiver, int count, Duration quiet, String what) {
        await(what).during(quiet).atMost(quiet.plus(QUIET_SLACK))
                .untilAsserted(() -> assertEquals(count, receiver.received().size(), what));
    }

    @Test
    void deliversTheExactWebhookBodySignedPerContract() throws Exception {
        try (Receiver receiver = Receiver.answering(204)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            String webhook = Events.itemApproved("r-exact");
            long before = System.currentTimeMillis() / 1000;
            // Recorded inside a trace, as the outbox relay publishes it: the delivery still carries none of it.
            TopicWriter.publishTraced(InfrastructureResource.running().kafka().bootstrapServers(), "care.events", "r-exact",
                    Events.envelope(Events.newId(), partner, "item.approved", webhook),
                    "00-0d7a3f5a1b2c4d5e6f708192a3b4c5d6-1a2b3c4d5e6f7081-01");

            assertTrue(receiver.await(1, 15_000), "delivered");
            Receiver.Received post = receiver.received().get(0);
            assertEquals("POST", post.method());
            assertEquals("/hooks/telemed?source=test", post.path());
            assertArrayEquals(webhook.getBytes(StandardCharsets.UTF_8), post.body());
            assertEquals("application/json", post.header("Content-Type"));
            assertEquals("Service-Webhook/1.0", post.header("User-Agent"));
            String timestamp = post.header("X-Webhook-Timestamp");
            assertTrue(timestamp.matches("[0-9]{10}"), timestamp);
            long signedAt = Long.parseLong(timestamp);
            assertTrue(signedAt >= before && signedAt <= System.currentTimeMillis() / 1000, timestamp);
            assertEquals(Hmac.expectedSignature(secret, timestamp, post.body()), post.header("X-Webhook-Signature"));
            assertNull(post.header("traceparent"));
            assertNull(post.header("tracestate"));

            Map<String, Object> delivery = ServiceDatabase.rows("SELECT id, status FROM deliveries WHERE partner_id = ?", partner).get(0);
            assertEquals(delivery.get("id").toString(), post.header("X-Webhook-Id"));
            awaitStatus(partner, "delivered");
            JsonPath log = log(partner);
            assertEquals(List.of(204), log.getList("deliveries[0].attempts.httpStatus"));
            assertEquals("item.approved", log.getString("deliveries[0].event"));
            assertEquals("Zoë Ångström", log.getString("deliveries[0].payload.patientName"));
        }
    }

    @Test
    void messagingEventsAreDeliveredToo() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            String webhook = "{\"event\":\"message.new\",\"memberId\":\"m-1\",\"prescriberName\":\"Dr. Q\","
                    + "\"messagePreview\":\"Hello\",\"conversationId\":\"c-1\",\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
            Events.publish("messaging.events", "c-1", Events.envelope(Events.newId(), partner, "message.new", webhook));
            assertTrue(receiver.await(1, 15_000), "delivered");
            Receiver.Received post = receiver.received().get(0);
            assertEquals(webhook, post.bodyText());
            assertEquals(Hmac.expectedSignature(secret, post.header("X-Webhook-Timestamp"), post.body()),
                    post.header("X-Webhook-Signature"));
        }
    }

    @Test
    void retriesAfterTwoThenFourSecondsWithIdenticalRequests() throws Exception {
        try (Receiver receiver = new Receiver(200, 500, 500)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-retry", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-retry")));

            assertTrue(receiver.await(3, 20_000), () -> "three attempts, got " + receiver.received().size()
                    + "; attempts " + ServiceDatabase.rows("SELECT a.http_status, a.error, a.duration_ms FROM delivery_attempts a"
                    + " JOIN deliveries d ON d.id = a.delivery_id WHERE d.partner_id = ? ORDER BY a.id", partner));
            List<Receiver.Received> posts = receiver.received();
            long first = gapMs(posts.get(0), posts.get(1));
            long second = gapMs(posts.get(1), posts.get(2));
            LOG.infof("MEASURED retry gaps: %d ms, %d ms", first, second);
            assertTrue(first >= 1800 && first <= 3000, "first wait " + first + " ms");
            assertTrue(second >= 3800 && second <= 5500, "second wait " + second + " ms");
            for (Receiver.Received post : posts) {
                assertArrayEquals(posts.get(0).body(), post.body());
                for (String header : List.of("X-Webhook-Timestamp", "X-Webhook-Signature", "X-Webhook-Id",
                        "Content-Type", "User-Agent")) {
                    assertEquals(posts.get(0).header(header), post.header(header), header);
                }
            }
            awaitStatus(partner, "delivered");
            JsonPath log = log(partner);
            assertEquals(1, log.getList("deliveries").size());
            assertEquals(List.of(500, 500, 200), log.getList("deliveries[0].attempts.httpStatus"));
            assertEquals(posts.get(0).header("X-Webhook-Id"), log.getString("deliveries[0].id"));
            assertStaysAt(receiver, 3, Duration.ofSeconds(1), "no attempt after the delivered one");
        }
    }

    @Test
    void threeFailuresMarkTheDeliveryFailedAndItIsNeverSentAgain() throws Exception {
        try (Receiver receiver = Receiver.answering(503)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-fail", Events.envelope(Events.newId(), partner, "item.denied",
                    "{\"event\":\"item.denied\",\"requestId\":\"r-fail\",\"timestamp\":\"2026-11-21T09:30:00.000Z\"}"));

            assertTrue(receiver.await(3, 20_000), () -> "three attempts, got " + receiver.received().size() + "; rows "
                    + ServiceDatabase.rows("SELECT status, attempt_count, round_attempts, next_attempt_at, lease_until, now() FROM deliveries"
                    + " WHERE partner_id = ?", partner));
            awaitStatus(partner, "failed");
            // Longer than the longest retry wait (4 s) plus a poll interval: a fourth attempt would come in it.
            assertStaysAt(receiver, 3, Duration.ofSeconds(7), "no fourth attempt");
            JsonPath log = log(partner);
            assertEquals("failed", log.getString("deliveries[0].status"));
            assertEquals(List.of(503, 503, 503), log.getList("deliveries[0].attempts.httpStatus"));
            assertEquals(1L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ? AND next_attempt_at IS NULL"
                    + " AND lease_until IS NULL", partner));
        }
    }

    @Test
    void aRedirectIsAFailureAndIsNotFollowed() throws Exception {
        try (Receiver receiver = new Receiver(200, 302)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-302", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-302")));
            assertTrue(receiver.await(2, 15_000), "retried after the redirect");
            awaitStatus(partner, "delivered");
            assertEquals(List.of(302, 200), log(partner).getList("deliveries[0].attempts.httpStatus"),
                    () -> log(partner).getList("deliveries[0].attempts").toString());
            for (Receiver.Received post : receiver.received()) {
                assertEquals("/hooks/telemed?source=test", post.path(), "the Location was never followed");
            }
        }
    }

    @Test
    void theSameEnvelopeTwiceIsDeliveredOnce() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            String envelope = Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-dup"));
            Events.publish("care.events", "r-dup", envelope, envelope);
            Events.publish("care.events", "r-dup", envelope);
            assertTrue(receiver.await(1, 15_000), "delivered");
            // The duplicates are consumed in the same or the next batches: no second POST meanwhile.
            assertStaysAt(receiver, 1, Duration.ofSeconds(3), "one POST for the three copies");
            assertEquals(1L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?", partner));
        }
    }

    @Test
    void eventsWithoutAUrlAreDroppedAndRecorded() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String cleared = Partners.newPartner();
            Partners.setUrl(cleared, receiver.url());
            given().contentType("application/json").body("{\"url\":null}")
                    .when().put("/ops/v1/partners/" + cleared + "/webhook").then().statusCode(200);
            String never = Partners.newPartner();
            String first = Events.newId();
            String second = Events.newId();
            Events.publish("care.events", "r-drop", Events.envelope(first, cleared, "item.approved", Events.itemApproved("r-drop")),
                    Events.envelope(second, never, "item.canceled",
                            "{\"event\":\"item.canceled\",\"requestId\":\"r\",\"timestamp\":\"2026-11-21T09:30:00.000Z\"}"));
            await("dropped").atMost(Duration.ofSeconds(15)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM dropped_events WHERE partner_id IN (?, ?)", cleared, never) == 2);
            assertEquals("item.approved", ServiceDatabase.rows("SELECT event FROM dropped_events WHERE event_id = ?", first).get(0).get("event"));
            assertEquals(never, ServiceDatabase.rows("SELECT partner_id FROM dropped_events WHERE event_id = ?", second).get(0).get("partner_id"));
            assertEquals(0L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id IN (?, ?)", cleared, never));
            assertStaysAt(receiver, 0, Duration.ofMillis(500), "nothing sent for a dropped event");
        }
    }

    @Test
    void internalOnlyEventsAreIgnored() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            String internal = "{\"id\":\"" + Events.newId() + "\",\"type\":\"member.created\",\"partnerId\":\"" + partner
                    + "\",\"occurredAt\":\"2026-11-21T09:30:00.000Z\",\"subject\":{\"memberId\":\"m\"},\"data\":{},\"webhook\":null}";
            Events.publish("care.events", "r-int", internal, "not even json",
                    Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-int")));
            assertTrue(receiver.await(1, 15_000), "the event after them is delivered");
            assertStaysAt(receiver, 1, Duration.ofSeconds(1), "nothing sent for the internal and malformed envelopes");
            assertEquals(1L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?", partner));
        }
    }

    @Test
    void aHangingPartnerDoesNotDelayAnotherPartner() throws Exception {
        try (Receiver hanging = Receiver.answering(Receiver.HANG); Receiver healthy = Receiver.answering(200)) {
            String slow = Partners.newPartner();
            String fast = Partners.newPartner();
            Partners.setUrl(slow, hanging.url());
            Partners.setUrl(fast, healthy.url());
            List<String> backlog = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                backlog.add(Events.envelope(Events.newId(), slow, "item.approved", Events.itemApproved("r-slow-" + i)));
            }
            Events.publish("care.events", "r-slow", backlog.toArray(new String[0]));
            assertTrue(hanging.await(8, 15_000), "the slow partner's bound is full");
            assertStaysAt(hanging, 8, Duration.ofMillis(300), "at most max-in-flight-per-partner attempts at once");

            long published = System.nanoTime();
            Events.publish("care.events", "r-fast", Events.envelope(Events.newId(), fast, "item.approved",
                    Events.itemApproved("r-fast")));
            assertTrue(healthy.await(1, 5_000), "delivered");
            long waitedMs = (healthy.received().get(0).nanos() - published) / NANOS_PER_MS;
            LOG.infof("MEASURED healthy partner latency while another hangs: %d ms", waitedMs);
            assertTrue(waitedMs < 1000, "healthy partner waited " + waitedMs + " ms");
        } finally {
            // Leave nothing retrying for later tests.
            ServiceDatabase.update("UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL"
                    + " WHERE event = 'item.approved' AND body LIKE '%r-slow-%'");
        }
    }

    /**
     * A burst beyond what this replica holds for one partner (8 attempts in flight and 200 waiting in
     * memory, leased) leaves the rest in the database, unleased, to be claimed as room frees: every
     * event is delivered exactly once, at its first attempt.
     */
    @Test
    void aBurstBeyondThePartnersRoomWaitsInTheDatabaseAndIsDeliveredOnce() throws Exception {
        try (Receiver receiver = Receiver.answering(Receiver.HOLD)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            String[] burst = new String[300];
            for (int i = 0; i < burst.length; i++) {
                burst[i] = Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-burst-" + i));
            }
            Events.publish("care.events", "r-burst", burst);
            assertTrue(receiver.await(8, 15_000), "the partner's in-flight bound is full");
            await("all stored").atMost(Duration.ofSeconds(15)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ?", partner) == 300);
            await("300 - (8 + 200) unleased").atMost(Duration.ofSeconds(5)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ? AND lease_until IS NULL", partner) == 92);
            // Held rows are due when their lease ends (DeliveryStore.CLAIM: a claim's index range ends before them).
            assertEquals(208L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?"
                    + " AND next_attempt_at = lease_until AND lease_until > now() + interval '30 seconds'", partner));
            assertEquals(92L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?"
                    + " AND lease_until IS NULL AND next_attempt_at <= now()", partner));
            assertStaysAt(receiver, 8, Duration.ofMillis(300), "at most max-in-flight-per-partner attempts at once");

            receiver.release();
            await("all delivered").atMost(Duration.ofSeconds(30)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ? AND status = 'delivered'", partner) == 300);
            List<Receiver.Received> posts = receiver.received();
            assertEquals(300, posts.size(), "one POST per event");
            assertEquals(300, posts.stream().map(post -> post.header("X-Webhook-Id")).distinct().count());
            assertEquals(300, ServiceDatabase.count("SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id"
                    + " WHERE d.partner_id = ? AND a.http_status = 200", partner));
            assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?"
                    + " AND (attempt_count <> 1 OR lease_until IS NOT NULL OR next_attempt_at IS NOT NULL)", partner));
        }
    }

    /**
     * A restart in the middle of a retry sequence: all that survives a restart is the row, so the
     * row is staged as a previous process left it (one failed attempt recorded, next attempt due,
     * no lease). Exactly the two remaining attempts are made, 4 s apart, then it is failed.
     */
    @Test
    void aSequenceInterruptedByARestartMakesExactlyTheRemainingAttempts() throws Exception {
        try (Receiver receiver = Receiver.answering(500)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            String body = Events.itemApproved("r-restart");
            String timestamp = Long.toString(System.currentTimeMillis() / 1000 - 3);
            String signature = Hmac.expectedSignature(secret, timestamp, body.getBytes(StandardCharsets.UTF_8));
            UUID id = UUID.randomUUID();
            Timestamp created = Timestamp.from(Timestamps.now().minusSeconds(3));
            ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                            + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                            + " VALUES (?, ?, ?, 'item.approved', ?, ?, ?, 'retrying', 1, 1, now() - interval '1 second', NULL, ?, ?)",
                    id, partner, Events.newId(), body, timestamp, signature, created, created);
            ServiceDatabase.update("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES (?, ?, 500, NULL, 3)",
                    id, created);

            assertTrue(receiver.await(2, 15_000), "the remaining attempts");
            awaitStatus(partner, "failed");
            assertStaysAt(receiver, 2, Duration.ofMillis(6500), "exactly the two remaining attempts");
            List<Receiver.Received> posts = receiver.received();
            long gap = gapMs(posts.get(0), posts.get(1));
            assertTrue(gap >= 3800 && gap <= 5500, "second wait " + gap + " ms");
            for (Receiver.Received post : posts) {
                assertEquals(timestamp, post.header("X-Webhook-Timestamp"));
                assertEquals(signature, post.header("X-Webhook-Signature"));
                assertEquals(id.toString(), post.header("X-Webhook-Id"));
                assertEquals(body, post.bodyText());
            }
            assertEquals(List.of(500, 500, 500), log(partner).getList("deliveries[0].attempts.httpStatus"));
        }
    }

    /** A replica that claimed a delivery and died: its lease expires and this replica takes the delivery over. */
    @Test
    void anExpiredLeaseOfADeadReplicaIsTakenOver() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            String body = Events.itemApproved("r-lease");
            String timestamp = Long.toString(System.currentTimeMillis() / 1000);
            UUID id = UUID.randomUUID();
            Timestamp created = Timestamp.from(Timestamps.now());
            long staged = System.nanoTime();
            ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                            + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                            + " VALUES (?, ?, ?, 'item.approved', ?, ?, ?, 'retrying', 0, 0, now(), now() + interval '2 seconds', ?, ?)",
                    id, partner, Events.newId(), body, timestamp,
                    Hmac.expectedSignature(secret, timestamp, body.getBytes(StandardCharsets.UTF_8)), created, created);

            assertTrue(receiver.await(1, 10_000), "taken over");
            long waited = (receiver.received().get(0).nanos() - staged) / NANOS_PER_MS;
            assertTrue(waited >= 1800 && waited <= 3500, "attempted " + waited + " ms after staging (lease 2 s)");
            assertEquals(id.toString(), receiver.received().get(0).header("X-Webhook-Id"));
            awaitStatus(partner, "delivered");
        }
    }
}

package com.telemed.webhook.events;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Hmac;
import com.telemed.webhook.support.LastAttempts;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The events API (partner-extensions.md, Events): exact bodies, every status and error string. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class EventsResourceTest {

    private static RequestSpecification as(String partnerId) {
        return given().header("X-Partner-Id", partnerId);
    }

    /** An event as intake records it (the partner's next sequence number), at {@code createdAt}. */
    static UUID stage(String partnerId, String type, String body, Instant createdAt) {
        UUID id = UUID.randomUUID();
        long seq = (Long) ServiceDatabase.rows("INSERT INTO partner_event_counters AS c (partner_id, last_seq) VALUES (?, 1)"
                + " ON CONFLICT (partner_id) DO UPDATE SET last_seq = c.last_seq + 1 RETURNING last_seq", partnerId).get(0).get("last_seq");
        ServiceDatabase.update("INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                id, partnerId, seq, Events.newId(), type, body, Timestamp.from(createdAt));
        return id;
    }

    /**
     * The event's delivery as the dispatcher leaves it: {@code status}, one attempt a second from {@code first}; V8's
     * trigger keeps the newest attempt on the delivery row, as the recorder does.
     */
    static void stageDelivery(UUID id, String partnerId, String status, Instant first, Integer... statuses) {
        ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                        + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                        + " SELECT id, partner_id, event_id, type, body, '1763717400', 'sha256=00', ?, ?, ?,"
                        + "   CASE WHEN ? = 'retrying' THEN now() + interval '1 hour' END, NULL, created_at, created_at"
                        + " FROM events WHERE id = ?",
                status, statuses.length, statuses.length, status, id);
        for (int i = 0; i < statuses.length; i++) {
            ServiceDatabase.update("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES (?, ?, ?, NULL, 12)",
                    id, Timestamp.from(first.plusSeconds(i)), statuses[i]);
        }
    }

    private static List<String> ids(JsonPath page) {
        return page.getList("events.id");
    }

    @Test
    void oneEventInFullWithItsDeliveryState() {
        String partner = Partners.newPartner();
        Instant created = Instant.parse("2026-11-21T09:30:00.123Z");
        String body = "{\"event\":\"item.denied\",\"requestId\":\"r-9\",\"n\":1.50,\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
        UUID delivered = stage(partner, "item.denied", body, created);
        stageDelivery(delivered, partner, "delivered", created.plusMillis(100), 500, 200);
        UUID notSent = stage(partner, "message.new", "{\"event\":\"message.new\",\"timestamp\":\"2026-11-21T09:31:00.000Z\"}",
                created.plusSeconds(60));
        UUID retrying = stage(partner, "item.approved", "{\"event\":\"item.approved\"}", created.plusSeconds(120));
        stageDelivery(retrying, partner, "retrying", created.plusSeconds(120));
        UUID failed = stage(partner, "item.shipped", "{\"event\":\"item.shipped\"}", created.plusSeconds(180));
        stageDelivery(failed, partner, "failed", created.plusSeconds(180), 500, 503, 502);

        as(partner).when().get("/v1/events/" + delivered).then().statusCode(200).body(equalTo(
                "{\"event\":{\"id\":\"" + delivered + "\",\"type\":\"item.denied\",\"createdAt\":\"2026-11-21T09:30:00.123Z\","
                        + "\"data\":" + body + ",\"delivery\":{\"status\":\"delivered\",\"attempts\":2,"
                        + "\"lastAttemptAt\":\"2026-11-21T09:30:01.223Z\"}}}"));
        as(partner).when().get("/v1/events/" + notSent).then().statusCode(200).body(equalTo(
                "{\"event\":{\"id\":\"" + notSent + "\",\"type\":\"message.new\",\"createdAt\":\"2026-11-21T09:31:00.123Z\","
                        + "\"data\":{\"event\":\"message.new\",\"timestamp\":\"2026-11-21T09:31:00.000Z\"},"
                        + "\"delivery\":{\"status\":\"not_sent\",\"attempts\":0,\"lastAttemptAt\":null}}}"));
        as(partner).when().get("/v1/events/" + retrying).then().statusCode(200)
                .body("event.delivery.status", equalTo("retrying"))
                .body("event.delivery.attempts", equalTo(0))
                .body("event.delivery.lastAttemptAt", equalTo(null));
        as(partner).when().get("/v1/events/" + failed).then().statusCode(200)
                .body("event.delivery.status", equalTo("failed"))
                .body("event.delivery.attempts", equalTo(3))
                .body("event.delivery.lastAttemptAt", equalTo("2026-11-21T09:33:02.123Z"));

        JsonPath page = as(partner).when().get("/v1/events").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(delivered.toString(), notSent.toString(), retrying.toString(), failed.toString()), ids(page));
        assertEquals(List.of("delivered", "not_sent", "retrying", "failed"), page.getList("events.delivery.status"));
        assertEquals(failed.toString(), page.getString("nextCursor"));
        assertFalse(page.getBoolean("hasMore"));
    }

    @Test
    void unknownOrForeignEventIs404() {
        String partner = Partners.newPartner();
        UUID foreign = stage(Partners.newPartner(), "item.approved", "{\"event\":\"item.approved\"}", Instant.now());
        for (String id : new String[] {UUID.randomUUID().toString(), "not-a-uuid", foreign.toString()}) {
            as(partner).when().get("/v1/events/" + id).then()
                    .statusCode(404).body(equalTo("{\"error\":\"Event not found\"}"));
            as(partner).when().post("/v1/events/" + id + "/redeliver").then()
                    .statusCode(404).body(equalTo("{\"error\":\"Event not found\"}"));
        }
    }

    @Test
    void withoutThePartnerTheGatewayProvedIs401() {
        given().when().get("/v1/events").then().statusCode(401).body(equalTo("{\"error\":\"API Key missing\"}"));
    }

    /** Every event consumed is recorded, with or without a URL, in the partner's order; pages follow nextCursor. */
    @Test
    void pagesFromTheStartFollowingNextCursor() {
        String partner = Partners.newPartner();
        as(partner).when().get("/v1/events").then().statusCode(200)
                .body(equalTo("{\"events\":[],\"nextCursor\":null,\"hasMore\":false}"));

        List<String> envelopes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            envelopes.add(Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-page-" + i)));
        }
        // One key: one partition, so intake records them in this order.
        Events.publish("care.events", partner, envelopes.toArray(String[]::new));
        await().atMost(Duration.ofSeconds(15)).until(() -> ServiceDatabase.count("SELECT count(*) FROM events WHERE partner_id = ?", partner) == 5);
        assertEquals(5, ServiceDatabase.count("SELECT count(*) FROM dropped_events WHERE partner_id = ?", partner),
                "no URL: still dropped, as partner-api.md says");

        List<String> seen = new ArrayList<>();
        List<String> requests = new ArrayList<>();
        JsonPath page = as(partner).queryParam("limit", "2").when().get("/v1/events").then().statusCode(200).extract().jsonPath();
        assertTrue(page.getBoolean("hasMore"));
        seen.addAll(ids(page));
        requests.addAll(page.getList("events.data.requestId"));
        page = as(partner).queryParam("limit", "2").queryParam("after", page.getString("nextCursor")).when().get("/v1/events")
                .then().statusCode(200).extract().jsonPath();
        assertTrue(page.getBoolean("hasMore"));
        seen.addAll(ids(page));
        requests.addAll(page.getList("events.data.requestId"));
        page = as(partner).queryParam("limit", "2").queryParam("after", page.getString("nextCursor")).when().get("/v1/events")
                .then().statusCode(200).extract().jsonPath();
        assertFalse(page.getBoolean("hasMore"));
        assertEquals(1, ids(page).size());
        seen.addAll(ids(page));
        requests.addAll(page.getList("events.data.requestId"));
        String last = page.getString("nextCursor");
        assertEquals(seen.get(4), last);
        assertEquals(List.of("r-page-0", "r-page-1", "r-page-2", "r-page-3", "r-page-4"), requests);
        assertEquals(List.of("not_sent"), page.getList("events.delivery.status").stream().distinct().toList());

        // After the last: nothing, the cursor handed back unchanged.
        as(partner).queryParam("after", last).when().get("/v1/events").then().statusCode(200)
                .body(equalTo("{\"events\":[],\"nextCursor\":\"" + last + "\",\"hasMore\":false}"));
        // The ids are the sequence's order, and the same as one page of all shows.
        assertEquals(seen, ids(as(partner).when().get("/v1/events").then().statusCode(200).extract().jsonPath()));
    }

    @Test
    void defaultLimitIs20AndTypesFilter() {
        String partner = Partners.newPartner();
        Instant base = Instant.parse("2026-11-19T10:00:00.000Z");
        List<String> approved = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 22; i++) {
            String type = i % 3 == 0 ? "item.approved" : i % 3 == 1 ? "message.new" : "appointment.booked";
            String id = stage(partner, type, "{\"event\":\"" + type + "\"}", base.plusSeconds(i)).toString();
            all.add(id);
            if (type.equals("item.approved")) {
                approved.add(id);
            }
        }
        JsonPath first = as(partner).when().get("/v1/events").then().statusCode(200).extract().jsonPath();
        assertEquals(all.subList(0, 20), ids(first));
        assertTrue(first.getBoolean("hasMore"));
        assertEquals(all.get(19), first.getString("nextCursor"));

        JsonPath typed = as(partner).queryParam("types", "item.approved").when().get("/v1/events").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(approved, ids(typed));
        assertFalse(typed.getBoolean("hasMore"));
        // After a cursor of another type: strictly after it, only the named types.
        JsonPath typedAfter = as(partner).queryParam("types", "item.approved,appointment.booked").queryParam("after", all.get(1))
                .queryParam("limit", "3").when().get("/v1/events").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(all.get(2), all.get(3), all.get(5)), ids(typedAfter));
        assertTrue(typedAfter.getBoolean("hasMore"));
        assertEquals(all.get(5), typedAfter.getString("nextCursor"));
        // A type with no event: empty, the cursor handed back.
        as(partner).queryParam("types", "survey.completed").queryParam("after", all.get(3)).when().get("/v1/events").then()
                .statusCode(200).body(equalTo("{\"events\":[],\"nextCursor\":\"" + all.get(3) + "\",\"hasMore\":false}"));
    }

    @Test
    void unknownCursorIs400() {
        String partner = Partners.newPartner();
        stage(partner, "item.approved", "{\"event\":\"item.approved\"}", Instant.now());
        UUID foreign = stage(Partners.newPartner(), "item.approved", "{\"event\":\"item.approved\"}", Instant.now());
        for (String after : new String[] {UUID.randomUUID().toString(), "not-a-cursor", "", foreign.toString()}) {
            as(partner).queryParam("after", after).when().get("/v1/events").then()
                    .statusCode(400).body(equalTo("{\"error\":\"Unknown cursor\"}"));
        }
    }

    @Test
    void typesAndLimitAreValidatedLikeZod() {
        String partner = Partners.newPartner();
        String options = EventsSchemas.TYPES.stream().map(type -> "\"" + type + "\"").collect(Collectors.joining(","));
        String quoted = EventsSchemas.TYPES.stream().map(type -> "'" + type + "'").collect(Collectors.joining(" | "));
        as(partner).queryParam("types", "item.approved,item.exploded").when().get("/v1/events").then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_enum_value\",\"received\":\"item.exploded\",\"options\":[" + options + "],"
                        + "\"path\":[\"types\"],\"message\":\"Invalid enum value. Expected " + quoted + ", received 'item.exploded'\"}]}"));
        as(partner).queryParam("limit", "0").when().get("/v1/events").then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"too_small\",\"minimum\":1,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"limit\"],\"message\":\"Number must be greater than or equal to 1\"}]}"));
        as(partner).queryParam("limit", "101").when().get("/v1/events").then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"too_big\",\"maximum\":100,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"limit\"],\"message\":\"Number must be less than or equal to 100\"}]}"));
        as(partner).queryParam("limit", "abc").when().get("/v1/events").then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"number\",\"received\":\"nan\",\"path\":[\"limit\"],"
                        + "\"message\":\"Expected number, received nan\"}]}"));
        // Both at once, the limit's first; validation comes before the cursor is looked up.
        JsonPath both = as(partner).queryParam("limit", "500").queryParam("types", "nope").queryParam("after", "unknown")
                .when().get("/v1/events").then().statusCode(400).extract().jsonPath();
        assertEquals(List.of("too_big", "invalid_enum_value"), both.getList("error.code"));
        assertEquals(List.of(List.of("limit"), List.of("types")), both.getList("error.path"));
    }

    @Test
    void redeliverSendsTheSameEventNewlySignedWithTheSameId() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-events-again", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-events-again")));
            assertTrue(receiver.await(1, 15_000));
            String id = receiver.received().get(0).header("X-Webhook-Id");
            await().atMost(Duration.ofSeconds(5)).until(() -> "delivered".equals(
                    as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().path("event.delivery.status")));
            String rotated = given().when().post("/ops/v1/partners/" + partner + "/webhook/secret/rotate")
                    .then().statusCode(200).extract().path("secret");
            long firstSecond = Long.parseLong(receiver.received().get(0).header("X-Webhook-Timestamp"));
            await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                    .until(() -> Instant.now().getEpochSecond() > firstSecond);

            as(partner).when().post("/v1/events/" + id + "/redeliver").then()
                    .statusCode(202).body(equalTo("{\"eventId\":\"" + id + "\"}"));

            assertTrue(receiver.await(2, 10_000), "redelivered");
            Receiver.Received first = receiver.received().get(0);
            Receiver.Received again = receiver.received().get(1);
            assertArrayEquals(first.body(), again.body());
            assertEquals(id, again.header("X-Webhook-Id"));
            assertTrue(Long.parseLong(again.header("X-Webhook-Timestamp")) > firstSecond);
            assertNotEquals(first.header("X-Webhook-Signature"), again.header("X-Webhook-Signature"));
            assertEquals(Hmac.expectedSignature(rotated, again.header("X-Webhook-Timestamp"), again.body()),
                    again.header("X-Webhook-Signature"));
            await().atMost(Duration.ofSeconds(5)).until(() -> as(partner).when().get("/v1/events/" + id).then().statusCode(200)
                    .extract().jsonPath().getInt("event.delivery.attempts") == 2);
            JsonPath event = as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().jsonPath();
            assertEquals("delivered", event.getString("event.delivery.status"));
            assertEquals(1, as(partner).when().get("/v1/events").then().statusCode(200).extract().jsonPath().getList("events").size(),
                    "a redelivery is not a new event");
            assertEquals(0, LastAttempts.mismatches(partner), "the second round's attempt is the newest");
        }
    }

    /** An event recorded while no URL was set is sent once a URL is, under its own id. */
    @Test
    void redeliverAnEventNotSentOnceAUrlIsSet() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            String envelopeId = Events.newId();
            Events.publish("care.events", "r-later", Events.envelope(envelopeId, partner, "item.approved", Events.itemApproved("r-later")));
            await().atMost(Duration.ofSeconds(15)).until(() -> ServiceDatabase.count("SELECT count(*) FROM events WHERE partner_id = ?", partner) == 1);
            String id = as(partner).when().get("/v1/events").then().statusCode(200).extract().path("events[0].id");
            as(partner).when().get("/v1/events/" + id).then().statusCode(200).body("event.delivery.status", equalTo("not_sent"));

            as(partner).when().post("/v1/events/" + id + "/redeliver").then()
                    .statusCode(409).body(equalTo("{\"error\":\"No webhook URL configured\"}"));
            String secret = Partners.setUrl(partner, receiver.url());
            as(partner).when().post("/v1/events/" + id + "/redeliver").then()
                    .statusCode(202).body(equalTo("{\"eventId\":\"" + id + "\"}"));

            assertTrue(receiver.await(1, 10_000));
            Receiver.Received received = receiver.received().get(0);
            assertEquals(id, received.header("X-Webhook-Id"));
            assertEquals(Events.itemApproved("r-later"), received.bodyText());
            assertEquals(Hmac.expectedSignature(secret, received.header("X-Webhook-Timestamp"), received.body()),
                    received.header("X-Webhook-Signature"));
            await().atMost(Duration.ofSeconds(5)).until(() -> "delivered".equals(
                    as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().path("event.delivery.status")));
            assertEquals(envelopeId, ServiceDatabase.texts("SELECT event_id FROM deliveries WHERE id = ?::uuid", id).get(0));
            assertEquals(0, LastAttempts.mismatches(partner));
        }
    }

    /** A staged delivery's timestamp ({@link #stageDelivery}): what its old round's retries send. */
    private static final String OLD_ROUND = "1763717400";

    /**
     * Waiting for its next retry (an hour away), the delivery is sent now in a new round: signed afresh, same id,
     * and the old round's retry is not sent beside it.
     */
    @Test
    void redeliverOfADeliveryWaitingForItsRetrySendsItNowSignedAfresh() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            UUID id = stage(partner, "item.approved", "{\"event\":\"item.approved\"}", Instant.now());
            stageDelivery(id, partner, "retrying", Instant.now(), 500);
            long before = Instant.now().getEpochSecond();

            as(partner).when().post("/v1/events/" + id + "/redeliver").then()
                    .statusCode(202).body(equalTo("{\"eventId\":\"" + id + "\"}"));

            assertTrue(receiver.await(1, 10_000), "sent again");
            Receiver.Received again = receiver.received().get(0);
            assertEquals(id.toString(), again.header("X-Webhook-Id"));
            assertEquals("{\"event\":\"item.approved\"}", again.bodyText());
            assertTrue(Long.parseLong(again.header("X-Webhook-Timestamp")) >= before, "a fresh timestamp");
            assertEquals(Hmac.expectedSignature(secret, again.header("X-Webhook-Timestamp"), again.body()),
                    again.header("X-Webhook-Signature"));
            await().atMost(Duration.ofSeconds(5)).until(() -> "delivered".equals(
                    as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().path("event.delivery.status")));
            JsonPath event = as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().jsonPath();
            assertEquals(2, event.getInt("event.delivery.attempts"));
            assertEquals(List.of(1L, 0L), List.of(
                    ServiceDatabase.count("SELECT round_attempts FROM deliveries WHERE id = ?", id),
                    ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE id = ? AND next_attempt_at IS NOT NULL", id)),
                    "one attempt in the new round, no retry left of the old one");
            assertEquals(1, receiver.received().size());
            assertEquals(0, LastAttempts.mismatches(partner));
        }
    }

    /**
     * A retry of the old round is in flight (the receiver holds it): the redelivery waits for its attempt to be
     * recorded, then sends the event again in a new round, after it and never beside it.
     */
    @Test
    void redeliverWhileAnOldRoundsRetryIsInFlightFollowsIt() throws Exception {
        try (Receiver receiver = new Receiver(Receiver.HOLD)) {
            String partner = Partners.newPartner();
            String secret = Partners.setUrl(partner, receiver.url());
            UUID id = stage(partner, "item.approved", "{\"event\":\"item.approved\"}", Instant.now());
            stageDelivery(id, partner, "retrying", Instant.now(), 500);
            ServiceDatabase.update("UPDATE deliveries SET next_attempt_at = now() WHERE id = ?", id);
            assertTrue(receiver.await(1, 10_000), "the due retry is claimed and held");
            assertEquals(OLD_ROUND, receiver.received().get(0).header("X-Webhook-Timestamp"));
            long before = Instant.now().getEpochSecond();

            CompletableFuture<Integer> call = CompletableFuture.supplyAsync(() ->
                    as(partner).when().post("/v1/events/" + id + "/redeliver").then().extract().statusCode());
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !call.isDone());
            assertEquals(1, receiver.received().size(), "nothing sent beside the attempt in flight");
            receiver.release();

            assertEquals(202, call.get(10, TimeUnit.SECONDS));
            assertTrue(receiver.await(2, 10_000), "sent again after the attempt in flight");
            Receiver.Received again = receiver.received().get(1);
            assertTrue(Long.parseLong(again.header("X-Webhook-Timestamp")) >= before, "a fresh timestamp");
            assertEquals(Hmac.expectedSignature(secret, again.header("X-Webhook-Timestamp"), again.body()),
                    again.header("X-Webhook-Signature"));
            await().atMost(Duration.ofSeconds(5)).until(() -> as(partner).when().get("/v1/events/" + id).then().statusCode(200)
                    .extract().jsonPath().getInt("event.delivery.attempts") == 3);
            assertEquals("delivered", as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract()
                    .path("event.delivery.status"));
            assertEquals(2, receiver.received().size());
            assertEquals(0, LastAttempts.mismatches(partner), "the fresh round's attempt follows the old round's");
        }
    }

    /**
     * Two redeliveries of each of 8 events at once, as each event's old-round retry falls due: per event, the old
     * retry is sent at most once and never after a fresh send, at least one fresh send follows the calls and at most
     * one per call, and every send is recorded as an attempt (no send the log does not know).
     */
    @Test
    void twoRedeliveriesAndADueRetryAtOnceNeverSendTwiceAtOnce() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                UUID id = stage(partner, "item.approved", "{\"event\":\"item.approved\",\"n\":" + i + "}", Instant.now());
                stageDelivery(id, partner, "retrying", Instant.now(), 500);
                ids.add(id);
            }
            long before = Instant.now().getEpochSecond();
            ExecutorService callers = Executors.newFixedThreadPool(16);
            try {
                // Due in 300 ms (the claim loop polls every 250 ms): the calls start as they fall due.
                ServiceDatabase.update("UPDATE deliveries SET next_attempt_at = now() + interval '300 milliseconds'"
                        + " WHERE partner_id = ?", partner);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Integer>> calls = new ArrayList<>();
                for (UUID id : ids) {
                    for (int call = 0; call < 2; call++) {
                        calls.add(callers.submit(() -> {
                            go.await();
                            return as(partner).when().post("/v1/events/" + id + "/redeliver").then().extract().statusCode();
                        }));
                    }
                }
                // Every retry fallen due: due now, or already claimed (leased) or attempted by the claim loop, whose
                // poll may come within a millisecond of the due time (waiting for "all due" could miss that moment).
                await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5)).until(() -> ServiceDatabase.count(
                        "SELECT count(*) FROM deliveries WHERE partner_id = ?"
                                + " AND (next_attempt_at <= now() OR lease_until IS NOT NULL OR status <> 'retrying')", partner) == 8);
                go.countDown();
                for (Future<Integer> call : calls) {
                    assertEquals(202, call.get(30, TimeUnit.SECONDS));
                }
            } finally {
                callers.shutdownNow();
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE partner_id = ? AND status = 'delivered'", partner) == 8);
            for (UUID id : ids) {
                List<Receiver.Received> sends = receiver.received().stream()
                        .filter(received -> id.toString().equals(received.header("X-Webhook-Id"))).toList();
                List<Boolean> fresh = sends.stream()
                        .map(received -> Long.parseLong(received.header("X-Webhook-Timestamp")) >= before).toList();
                long stale = fresh.stream().filter(f -> !f).count();
                assertTrue(stale <= 1 && (stale == 0 || !fresh.get(0).equals(true)), id + ": the old retry at most once, first: " + fresh);
                assertTrue(fresh.contains(true) && sends.size() - stale <= 2, id + ": " + fresh);
                assertEquals(1 + sends.size(), ServiceDatabase.count("SELECT count(*) FROM delivery_attempts WHERE delivery_id = ?", id),
                        id + ": every send recorded");
            }
            assertEquals(0, LastAttempts.mismatches(partner));
        }
    }

    @Test
    void testWebhookIsSignedDeliveredAndRecorded() throws Exception {
        String partner = Partners.newPartner();
        as(partner).when().post("/v1/webhooks/test").then()
                .statusCode(409).body(equalTo("{\"error\":\"No webhook URL configured\"}"));
        // A URL saved and cleared again: still none.
        Partners.setUrl(partner, "http://127.0.0.1:9/x");
        given().contentType("application/json").body("{\"url\":null}").when().put("/ops/v1/partners/" + partner + "/webhook")
                .then().statusCode(200);
        as(partner).when().post("/v1/webhooks/test").then()
                .statusCode(409).body(equalTo("{\"error\":\"No webhook URL configured\"}"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM events WHERE partner_id = ?", partner));

        try (Receiver receiver = Receiver.answering(200)) {
            String secret = Partners.setUrl(partner, receiver.url());
            Instant before = Instant.now().minusMillis(1);
            String id = as(partner).when().post("/v1/webhooks/test").then().statusCode(202).extract().path("eventId");
            assertTrue(receiver.await(1, 10_000));
            Receiver.Received received = receiver.received().get(0);
            assertEquals(id, received.header("X-Webhook-Id"));
            String body = received.bodyText();
            assertTrue(body.matches("\\{\"event\":\"webhook\\.test\",\"timestamp\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\"}"), body);
            Instant timestamp = Instant.parse(body.substring(body.indexOf("\"timestamp\":\"") + 13, body.length() - 2));
            assertFalse(timestamp.isBefore(before));
            assertEquals(Hmac.expectedSignature(secret, received.header("X-Webhook-Timestamp"), received.body()),
                    received.header("X-Webhook-Signature"));
            assertEquals("Service-Webhook/1.0", received.header("User-Agent"));

            await().atMost(Duration.ofSeconds(5)).until(() -> "delivered".equals(
                    as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().path("event.delivery.status")));
            JsonPath page = as(partner).queryParam("types", "webhook.test").when().get("/v1/events").then().statusCode(200)
                    .extract().jsonPath();
            assertEquals(List.of(id), ids(page));
            assertEquals(List.of("webhook.test"), page.getList("events.type"));
            String shown = as(partner).when().get("/v1/events/" + id).then().statusCode(200).extract().asString();
            assertTrue(shown.startsWith("{\"event\":{\"id\":\"" + id + "\",\"type\":\"webhook.test\",\"createdAt\":\""), shown);
            assertTrue(shown.contains(",\"data\":" + body + ",\"delivery\":{\"status\":\"delivered\",\"attempts\":1,"), shown);
            assertEquals(0, LastAttempts.mismatches(partner), "the test webhook's attempt is kept on its delivery");
        }
    }
}

package com.telemed.webhook.delivery;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import io.restassured.path.json.JsonPath;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class DeliveryLogTest {

    private static String deliveries(String partnerId) {
        return "/ops/v1/partners/" + partnerId + "/webhook/deliveries";
    }

    /** A finished delivery as the dispatcher leaves it, created at the given instant. */
    private static UUID stage(String partnerId, String event, String body, Instant createdAt, Integer... statuses) {
        UUID id = UUID.randomUUID();
        Timestamp created = Timestamp.from(createdAt);
        boolean delivered = statuses.length > 0 && statuses[statuses.length - 1] / 100 == 2;
        ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                        + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, '1763717400', 'sha256=00', ?, ?, ?, NULL, NULL, ?, ?)",
                id, partnerId, Events.newId(), event, body, delivered ? "delivered" : "failed",
                statuses.length, statuses.length, created, created);
        for (int i = 0; i < statuses.length; i++) {
            ServiceDatabase.update("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES (?, ?, ?, NULL, ?)",
                    id, Timestamp.from(createdAt.plusSeconds(i * 2L)), statuses[i], 10 + i);
        }
        return id;
    }

    @Test
    void oneDeliveryInFull() {
        String partner = Partners.newPartner();
        Instant created = Instant.parse("2026-11-21T09:30:00.123Z");
        String body = "{\"event\":\"item.denied\",\"requestId\":\"r-9\",\"n\":1.50,\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
        UUID id = stage(partner, "item.denied", body, created, 500, 200);
        ServiceDatabase.update("UPDATE delivery_attempts SET http_status = NULL, error = 'timeout', duration_ms = 10000"
                + " WHERE delivery_id = ? AND http_status = 500", id);
        given().when().get(deliveries(partner)).then().statusCode(200).body(equalTo(
                "{\"deliveries\":[{\"id\":\"" + id + "\",\"event\":\"item.denied\",\"status\":\"delivered\",\"attempts\":["
                        + "{\"at\":\"2026-11-21T09:30:00.123Z\",\"httpStatus\":null,\"error\":\"timeout\",\"durationMs\":10000},"
                        + "{\"at\":\"2026-11-21T09:30:02.123Z\",\"httpStatus\":200,\"error\":null,\"durationMs\":11}],"
                        + "\"payload\":{\"event\":\"item.denied\",\"requestId\":\"r-9\",\"n\":1.50,\"timestamp\":\"2026-11-21T09:30:00.000Z\"},"
                        + "\"createdAt\":\"2026-11-21T09:30:00.123Z\"}]}"));
    }

    @Test
    void newestFirstWithLimitAndEventFilter() {
        String partner = Partners.newPartner();
        Instant base = Instant.parse("2026-11-20T10:00:00.000Z");
        UUID a = stage(partner, "item.approved", "{\"event\":\"item.approved\",\"n\":1}", base, 200);
        UUID b = stage(partner, "item.denied", "{\"event\":\"item.denied\",\"n\":2}", base.plusSeconds(60), 200);
        UUID c = stage(partner, "item.approved", "{\"event\":\"item.approved\",\"n\":3}", base.plusSeconds(120), 500, 500, 500);
        UUID d = stage(partner, "message.new", "{\"event\":\"message.new\",\"n\":4}", base.plusSeconds(180), 200);
        stage(Partners.newPartner(), "item.approved", "{\"event\":\"item.approved\"}", base.plusSeconds(240), 200);

        JsonPath all = given().when().get(deliveries(partner)).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(d.toString(), c.toString(), b.toString(), a.toString()), all.getList("deliveries.id"));
        assertEquals(List.of("delivered", "failed", "delivered", "delivered"), all.getList("deliveries.status"));
        assertEquals(List.of(500, 500, 500), all.getList("deliveries[1].attempts.httpStatus"));

        JsonPath two = given().queryParam("limit", "2").when().get(deliveries(partner)).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(d.toString(), c.toString()), two.getList("deliveries.id"));

        JsonPath approved = given().queryParam("event", "item.approved").when().get(deliveries(partner))
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(c.toString(), a.toString()), approved.getList("deliveries.id"));
        assertEquals(3, approved.getInt("deliveries[0].payload.n"));

        JsonPath oneApproved = given().queryParam("event", "item.approved").queryParam("limit", "1")
                .when().get(deliveries(partner)).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(c.toString()), oneApproved.getList("deliveries.id"));

        given().when().get(deliveries(Partners.newPartner())).then().statusCode(200).body(equalTo("{\"deliveries\":[]}"));
    }

    @Test
    void defaultLimitIs50() {
        String partner = Partners.newPartner();
        Instant base = Instant.parse("2026-11-19T10:00:00.000Z");
        for (int i = 0; i < 52; i++) {
            stage(partner, "item.approved", "{\"event\":\"item.approved\"}", base.plusSeconds(i), 200);
        }
        assertEquals(50, given().when().get(deliveries(partner)).then().statusCode(200).extract().jsonPath()
                .getList("deliveries").size());
        assertEquals(52, given().queryParam("limit", "100").when().get(deliveries(partner)).then().statusCode(200)
                .extract().jsonPath().getList("deliveries").size());
    }

    @Test
    void limitIsValidatedLikeZod() {
        String path = deliveries(Partners.newPartner());
        given().queryParam("limit", "0").when().get(path).then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"too_small\",\"minimum\":1,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"limit\"],\"message\":\"Number must be greater than or equal to 1\"}]}"));
        given().queryParam("limit", "101").when().get(path).then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"too_big\",\"maximum\":100,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"limit\"],\"message\":\"Number must be less than or equal to 100\"}]}"));
        given().queryParam("limit", "abc").when().get(path).then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"number\",\"received\":\"nan\",\"path\":[\"limit\"],"
                        + "\"message\":\"Expected number, received nan\"}]}"));
        given().queryParam("limit", "2.5").when().get(path).then().statusCode(400).body(equalTo(
                "{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"integer\",\"received\":\"float\",\"path\":[\"limit\"],"
                        + "\"message\":\"Expected integer, received float\"}]}"));
    }

    @Test
    void redeliverUnknownOrForeignDeliveryIs404() {
        String partner = Partners.newPartner();
        String other = Partners.newPartner();
        Partners.setUrl(partner, "http://127.0.0.1:9/x");
        UUID foreign = stage(other, "item.approved", "{\"event\":\"item.approved\"}", Instant.now(), 200);
        for (String id : new String[] {UUID.randomUUID().toString(), "not-a-uuid", foreign.toString()}) {
            given().when().post(deliveries(partner) + "/" + id + "/redeliver").then()
                    .statusCode(404).body(equalTo("{\"error\":\"Delivery not found\"}"));
        }
    }

    @Test
    void redeliverWithoutUrlIs400() {
        String partner = Partners.newPartner();
        UUID id = stage(partner, "item.approved", "{\"event\":\"item.approved\"}", Instant.now(), 200);
        given().when().post(deliveries(partner) + "/" + id + "/redeliver").then()
                .statusCode(400).body(equalTo("{\"error\":\"Webhook URL not set\"}"));
    }

    @Test
    void redeliverWhileStillRetryingIs400() throws Exception {
        try (Receiver receiver = Receiver.answering(500)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-busy", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-busy")));
            assertTrue(receiver.await(1, 15_000));
            String id = ServiceDatabase.rows("SELECT id FROM deliveries WHERE partner_id = ?", partner).get(0).get("id").toString();
            given().when().post(deliveries(partner) + "/" + id + "/redeliver").then()
                    .statusCode(400).body(equalTo("{\"error\":\"Delivery is still being attempted\"}"));
        } finally {
            ServiceDatabase.update("UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE body LIKE '%r-busy%'");
        }
    }

    /** Same body and X-Webhook-Id, a fresh timestamp, signed with the partner's current secret. */
    @Test
    void redeliverSendsTheSameBodyNewlySigned() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-again", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-again")));
            assertTrue(receiver.await(1, 15_000));
            String id = ServiceDatabase.rows("SELECT id FROM deliveries WHERE partner_id = ?", partner).get(0).get("id").toString();
            await().atMost(Duration.ofSeconds(5)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE id = ?::uuid AND status = 'delivered'", id) == 1);
            String rotated = given().when().post("/ops/v1/partners/" + partner + "/webhook/secret/rotate")
                    .then().statusCode(200).extract().path("secret");
            // A later second than the first attempt's: the redelivery's timestamp must visibly change.
            long firstSecond = Long.parseLong(receiver.received().get(0).header("X-Webhook-Timestamp"));
            await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                    .until(() -> Instant.now().getEpochSecond() > firstSecond);

            given().when().post(deliveries(partner) + "/" + id + "/redeliver").then()
                    .statusCode(202)
                    .body("delivery.id", equalTo(id))
                    .body("delivery.status", equalTo("retrying"))
                    .body("delivery.event", equalTo("item.approved"))
                    .body("delivery.payload.requestId", equalTo("r-again"));

            assertTrue(receiver.await(2, 10_000), "redelivered");
            Receiver.Received first = receiver.received().get(0);
            Receiver.Received again = receiver.received().get(1);
            assertArrayEquals(first.body(), again.body());
            assertEquals(id, again.header("X-Webhook-Id"));
            assertEquals(first.header("X-Webhook-Id"), again.header("X-Webhook-Id"));
            assertTrue(Long.parseLong(again.header("X-Webhook-Timestamp")) > Long.parseLong(first.header("X-Webhook-Timestamp")));
            assertNotEquals(first.header("X-Webhook-Signature"), again.header("X-Webhook-Signature"));
            assertEquals(Hmac.expectedSignature(rotated, again.header("X-Webhook-Timestamp"), again.body()),
                    again.header("X-Webhook-Signature"));

            await().atMost(Duration.ofSeconds(5)).until(() -> ServiceDatabase.count(
                    "SELECT count(*) FROM deliveries WHERE id = ?::uuid AND status = 'delivered'", id) == 1);
            JsonPath log = given().when().get(deliveries(partner)).then().statusCode(200).extract().jsonPath();
            assertEquals(List.of(200, 200), log.getList("deliveries[0].attempts.httpStatus"));
            assertEquals(1, log.getList("deliveries").size());
        }
    }
}

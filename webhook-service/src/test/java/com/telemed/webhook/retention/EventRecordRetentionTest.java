package com.telemed.webhook.retention;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.common.retention.Pruner;
import com.telemed.common.retention.RetentionJob;
import com.telemed.testkit.quarkus.AuditEntriesAged;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The event record is kept 30 days (partner-extensions.md, Events), then pruned: rows are staged
 * with the ages a moved clock would give them, 29 and 31 days.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class EventRecordRetentionTest {

    private static final Duration DAY = Duration.ofDays(1);

    @Inject
    RetentionJob retention;

    @Test
    void theDeliveryLogAndDroppedEventsKeep30DaysAndThePruneDeletesWhatIsOlder() throws SQLException {
        String partner = Partners.newPartner();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        UUID inside = stage(partner, "delivered", now.minus(DAY.multipliedBy(29)), 200);
        UUID old = stage(partner, "failed", now.minus(DAY.multipliedBy(31)), 500, 500, 500);
        // An old delivery redelivered and still being attempted stays until its round ends.
        UUID oldBeingAttempted = stage(partner, "retrying", now.minus(DAY.multipliedBy(31)), 500);
        String droppedInside = drop(partner, now.minus(DAY.multipliedBy(29)));
        String droppedOld = drop(partner, now.minus(DAY.multipliedBy(31)));
        assertEquals(List.of(inside.toString(), oldBeingAttempted.toString(), old.toString()), logIds(partner));

        // Audit entries are kept six years (2,192 days; platform-commons' audit.AuditRetention): one a day older goes.
        AuditEntriesAged auditEntries = AuditEntriesAged.insert();
        List<Pruner.Pruned> pruned = retention.prune();
        auditEntries.assertOnlyTheYoungerLeft();

        JsonPath log = given().when().get("/ops/v1/partners/" + partner + "/webhook/deliveries").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(List.of(inside.toString(), oldBeingAttempted.toString()), log.getList("deliveries.id"));
        assertEquals(List.of("delivered", "retrying"), log.getList("deliveries.status"));
        assertEquals(List.of(200), log.getList("deliveries[0].attempts.httpStatus"));
        assertEquals(29, log.getInt("deliveries[0].payload.n"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM delivery_attempts WHERE delivery_id = ?", old),
                "the old delivery's attempts went with it");
        assertEquals(List.of(droppedInside), ServiceDatabase.texts(
                "SELECT event_id FROM dropped_events WHERE event_id IN (?, ?)", droppedInside, droppedOld));

        assertEquals(List.of("audit_entries", "deliveries", "dropped_events", "events"), pruned.stream().map(Pruner.Pruned::table).sorted().toList());
        assertEquals(1, pruned.stream().filter(table -> table.table().equals("audit_entries")).findFirst().orElseThrow().rows());

        ServiceDatabase.update("DELETE FROM deliveries WHERE partner_id = ?", partner);
    }

    /**
     * Events (partner-extensions.md: kept 30 days) go with the rest of the record; a cursor on a pruned
     * one is unknown; the partner's counter stays, so its sequence never starts again.
     */
    @Test
    void eventsKeep30DaysTheCursorOfAPrunedOneIsUnknownAndTheCounterStays() throws SQLException {
        String partner = Partners.newPartner();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        UUID old = event(partner, 1, now.minus(DAY.multipliedBy(31)));
        UUID inside = event(partner, 2, now.minus(DAY.multipliedBy(29)));
        ServiceDatabase.update("INSERT INTO partner_event_counters (partner_id, last_seq) VALUES (?, 2)", partner);
        assertEquals(List.of(old.toString(), inside.toString()), given().header("X-Partner-Id", partner).when().get("/v1/events")
                .then().statusCode(200).extract().jsonPath().getList("events.id"));

        retention.prune();

        assertEquals(List.of(inside.toString()), given().header("X-Partner-Id", partner).when().get("/v1/events")
                .then().statusCode(200).extract().jsonPath().getList("events.id"));
        given().header("X-Partner-Id", partner).queryParam("after", old.toString()).when().get("/v1/events").then()
                .statusCode(400).body(equalTo("{\"error\":\"Unknown cursor\"}"));
        given().header("X-Partner-Id", partner).when().get("/v1/events/" + old).then()
                .statusCode(404).body(equalTo("{\"error\":\"Event not found\"}"));
        assertEquals(2, ServiceDatabase.count("SELECT last_seq FROM partner_event_counters WHERE partner_id = ?", partner));
    }

    private static UUID event(String partnerId, long seq, Instant createdAt) {
        UUID id = UUID.randomUUID();
        ServiceDatabase.update("INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at)"
                        + " VALUES (?, ?, ?, ?, 'item.approved', '{\"event\":\"item.approved\"}', ?)",
                id, partnerId, seq, Events.newId(), Timestamp.from(createdAt));
        return id;
    }

    /** A delivery as the dispatcher leaves it (retrying: waiting for an attempt far ahead), stored at {@code createdAt}. */
    private static UUID stage(String partnerId, String status, Instant createdAt, Integer... statuses) {
        UUID id = UUID.randomUUID();
        Timestamp created = Timestamp.from(createdAt);
        long days = Duration.between(createdAt, Instant.now()).toDays();
        ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                        + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                        + " VALUES (?, ?, ?, 'item.approved', ?, '1763717400', 'sha256=00', ?, ?, ?,"
                        + " CASE WHEN ? = 'retrying' THEN now() + interval '1 day' END, NULL, ?, ?)",
                id, partnerId, Events.newId(), "{\"event\":\"item.approved\",\"n\":" + days + "}", status,
                statuses.length, statuses.length, status, created, created);
        for (int i = 0; i < statuses.length; i++) {
            ServiceDatabase.update("INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms) VALUES (?, ?, ?, NULL, 10)",
                    id, Timestamp.from(createdAt.plusSeconds(i * 2L)), statuses[i]);
        }
        return id;
    }

    private static String drop(String partnerId, Instant at) {
        String eventId = Events.newId();
        ServiceDatabase.update("INSERT INTO dropped_events (event_id, partner_id, event, at) VALUES (?, ?, 'item.approved', ?)",
                eventId, partnerId, Timestamp.from(at));
        return eventId;
    }

    private static List<String> logIds(String partnerId) {
        return given().when().get("/ops/v1/partners/" + partnerId + "/webhook/deliveries").then().statusCode(200)
                .extract().jsonPath().getList("deliveries.id");
    }
}

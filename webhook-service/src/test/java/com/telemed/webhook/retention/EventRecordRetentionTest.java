package com.telemed.webhook.retention;

import static io.restassured.RestAssured.given;
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

        assertEquals(List.of("audit_entries", "deliveries", "dropped_events"), pruned.stream().map(Pruner.Pruned::table).sorted().toList());
        assertEquals(1, pruned.stream().filter(table -> table.table().equals("audit_entries")).findFirst().orElseThrow().rows());

        ServiceDatabase.update("DELETE FROM deliveries WHERE partner_id = ?", partner);
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

package com.telemed.webhook.delivery;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.LastAttempts;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The newest attempt kept on the delivery row (issue 44, round 4: {@code deliveries.last_attempt_at}, written by
 * {@link DeliveryStore#RECORD}), which the events page shows as {@code lastAttemptAt} instead of reading the newest
 * {@code delivery_attempts} row: in every state it equals what that read gave ({@link LastAttempts#NEWEST}, the attempt
 * of the greatest id). The deliveries are staged held far into the future, so no claim of the running service touches
 * them; the redelivery rounds and the test webhook are in {@code EventsResourceTest}.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class LastAttemptTest {

    @Inject
    DeliveryStore store;

    /** An event and its delivery, as intake records them, held by a lease a day long. */
    private static UUID stage(String partner, long seq) {
        UUID id = UUID.randomUUID();
        Timestamp created = Timestamp.from(Instant.now());
        ServiceDatabase.update("INSERT INTO events (id, partner_id, seq, event_id, type, body, created_at)"
                + " VALUES (?, ?, ?, ?, 'item.approved', '{\"n\":1}', ?)", id, partner, seq, Events.newId(), created);
        ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                        + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                        + " SELECT id, partner_id, event_id, type, body, '1763717400', 'sha256=ab', 'retrying', 0, 0,"
                        + " now() + interval '1 day', now() + interval '1 day', created_at, created_at FROM events WHERE id = ?",
                id);
        return id;
    }

    /**
     * Records the outcomes, then holds the partner's deliveries still retrying again (a day's lease): a retry due in
     * 2 s would otherwise be claimed by the running service and attempted (no URL: one attempt more) during the test
     * or the next one.
     */
    private void record(String partner, Outcome... outcomes) throws Exception {
        store.record(List.of(outcomes));
        hold(partner);
    }

    private static void hold(String partner) {
        ServiceDatabase.update("UPDATE deliveries SET next_attempt_at = now() + interval '1 day', lease_until = now() + interval '1 day'"
                + " WHERE partner_id = ? AND status = 'retrying'", partner);
    }

    private static Outcome outcome(UUID id, String partner, Instant at, int status) {
        return outcome(id, partner, at, status, 0);
    }

    /** An attempt after {@code before} attempts of its round. */
    private static Outcome outcome(UUID id, String partner, Instant at, int status, int before) {
        return new Outcome(Job.signed(id, partner, "http://127.0.0.1:9/hooks", "{\"n\":1}", "1763717400", "sha256=ab", before),
                at, status, null, 5);
    }

    private static String shown(String partner, UUID id) {
        return given().header("X-Partner-Id", partner).when().get("/v1/events/" + id).then().statusCode(200).extract()
                .path("event.delivery.lastAttemptAt");
    }

    @Test
    void everyStateShowsItsNewestAttempt() throws Exception {
        String partner = Partners.newPartner();
        UUID retrying = stage(partner, 1);
        UUID delivered = stage(partner, 2);
        UUID failed = stage(partner, 3);
        UUID twice = stage(partner, 4);
        UUID earlierLast = stage(partner, 5);
        UUID untried = stage(partner, 6);
        Instant t = Instant.parse("2026-11-21T09:30:00.123456Z");

        record(partner, outcome(retrying, partner, t, 500), outcome(delivered, partner, t, 500),
                outcome(failed, partner, t, 500), outcome(earlierLast, partner, t, 500));
        record(partner, outcome(delivered, partner, t.plusSeconds(2), 200, 1), outcome(failed, partner, t.plusSeconds(2), 500, 1));
        record(partner, outcome(failed, partner, t.plusSeconds(6), 503, 2));
        // One delivery twice in a batch (the rounds, one transaction): the second is the newest.
        record(partner, outcome(twice, partner, t, 500), outcome(twice, partner, t.plusMillis(1), 500, 1));
        // Recorded after, with an earlier time: the newest is the last recorded, as the read by id gave.
        record(partner, outcome(earlierLast, partner, t.minusSeconds(60), 500, 1));

        assertEquals("2026-11-21T09:30:00.123Z", shown(partner, retrying));
        assertEquals("2026-11-21T09:30:02.123Z", shown(partner, delivered));
        assertEquals("2026-11-21T09:30:06.123Z", shown(partner, failed));
        assertEquals("2026-11-21T09:30:00.124Z", shown(partner, twice));
        assertEquals("2026-11-21T09:29:00.123Z", shown(partner, earlierLast));
        assertNull(shown(partner, untried));
        assertEquals(List.of("retrying", "delivered", "failed", "retrying", "retrying", "retrying"), given()
                .header("X-Partner-Id", partner).when().get("/v1/events").then().statusCode(200).extract().path("events.delivery.status"));
        assertEquals(0, LastAttempts.mismatches(partner));
        assertEquals(Timestamp.from(t.plusSeconds(6)).toInstant(), ((Timestamp) ServiceDatabase.rows(
                "SELECT last_attempt_at FROM deliveries WHERE id = ?", failed).get(0).get("last_attempt_at")).toInstant(),
                "kept to the microsecond");
    }

    /**
     * Two recordings of one delivery (a replica whose lease ran out, still attempting, and the one that took it over):
     * the first inserts its attempt, then waits for the row; the second inserts its attempt after (a greater id),
     * updates the row and commits first. The row keeps the second's attempt, the one of the greatest id, though the
     * first updated it last (and its attempt is the later in time).
     */
    @Test
    void aRecordingThatUpdatesLastKeepsTheAttemptOfTheGreatestId() throws Exception {
        String partner = Partners.newPartner();
        UUID id = stage(partner, 1);
        Instant t = Instant.now().truncatedTo(ChronoUnit.MICROS);
        CompletableFuture<Void> first;
        try (Connection other = ServiceDatabase.connect()) {
            other.setAutoCommit(false);
            try (Statement lock = other.createStatement()) {
                lock.execute("SELECT 1 FROM deliveries WHERE id = '" + id + "' FOR UPDATE");
            }
            first = CompletableFuture.runAsync(() -> {
                try {
                    store.record(List.of(outcome(id, partner, t, 500)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> ServiceDatabase.count("SELECT count(*) FROM pg_stat_activity"
                    + " WHERE wait_event_type = 'Lock' AND query LIKE 'WITH attempts AS (INSERT INTO delivery_attempts%'") == 1);
            store.record(other, List.of(outcome(id, partner, t.minusSeconds(1), 500)));
            other.commit();
        }
        first.get(10, TimeUnit.SECONDS);
        hold(partner);

        assertEquals(2, ServiceDatabase.count("SELECT attempt_count FROM deliveries WHERE id = ?", id));
        assertEquals(Timestamp.from(t.minusSeconds(1)).toInstant(), ((Timestamp) ServiceDatabase.rows(
                "SELECT " + LastAttempts.NEWEST + " AS newest FROM deliveries d WHERE d.id = ?", id).get(0).get("newest")).toInstant(),
                "the second recording's attempt has the greater id: the first's was inserted before it waited");
        assertEquals(0, LastAttempts.mismatches(partner));
    }
}
